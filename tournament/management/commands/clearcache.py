"""python manage.py clearcache: forget every page the processes computed (the shared cache).

The results service runs it before its web server starts (deploy/systemd/kreuzdame-web.service):
after an update the same state of a tournament may look different (a changed template), so
what the code before computed must not be served. In the hall it changes nothing: there each
process keeps its pages in its own memory, which a restart empties anyway."""

from django.core.cache import cache
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Empty the cache the server processes share (CACHE_BACKEND=database or REDIS_URL)."

    def handle(self, *args, **options):
        cache.clear()
        if options["verbosity"]:
            self.stdout.write("Cache emptied.")
