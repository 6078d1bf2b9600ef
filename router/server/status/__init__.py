"""The operator's view of ``router serve``: a live page of providers, decisions, spend and errors."""
