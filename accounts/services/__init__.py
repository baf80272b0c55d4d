"""What accounts writes (docs/accounts.md): one module a job, keyword-only arguments after the
first, a refusal an ``accounts.errors.AccountRefused``."""
