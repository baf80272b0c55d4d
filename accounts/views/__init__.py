"""The account's pages (docs/accounts.md): each view parses the request, calls a service or a
selector, and renders."""
