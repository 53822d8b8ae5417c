"""What every layer may use beside the models: the version counters of cached pages and files,
the memo cache keyed by them, the rate limits kept in the database, the site's public address."""
