"""Running the site: hall mode on the director's laptop, backups, private database files, the
development server's address check."""
