"""The players page's table and its filter (django-tables2, django-filter)."""
