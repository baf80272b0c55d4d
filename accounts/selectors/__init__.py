"""What accounts reads, as data (docs/accounts.md): the person's settings, time zone, holiday
allowance and relations."""
