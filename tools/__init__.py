"""Developer tools that the site never imports (an import-linter contract keeps it so)."""
