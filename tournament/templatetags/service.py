"""The results service in templates: ``{{ tournament|stand }}`` is "Stand 14:32" on a
published tournament's pages (the hall's time of the state shown; with the date when that was
not today), empty elsewhere."""

from django import template
from django.utils import formats, timezone
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def stand(tournament) -> str:
    moment = getattr(tournament, "published_at", None)
    if not getattr(tournament, "club_id", None) or moment is None:
        return ""
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        when = formats.time_format(local, "TIME_FORMAT")
    else:
        when = formats.date_format(local, "SHORT_DATETIME_FORMAT")
    return _("As of %(moment)s") % {"moment": when}
