"""Reading files people bring: CSV and Excel tables, decoded and size-limited, before any
domain verb sees their content."""
