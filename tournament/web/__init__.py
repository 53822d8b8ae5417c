"""Request plumbing: middleware, login limits, the device cookie, the players page's live
rows, logging and error reports."""
