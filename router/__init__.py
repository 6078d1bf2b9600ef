"""router: one tool loop, many providers. See README.md."""
