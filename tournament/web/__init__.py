"""Request plumbing: middleware, rate limits, caching and the versions it is keyed by, the
device cookie, the players page's live rows, logging and error reports."""
