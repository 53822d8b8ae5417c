"""``{% device_follow table %}`` on the keeper's page: for a tablet paired with the table's
number (tournament/web/devices.py) it adds the poll that takes the page on to the next round."""

from django import template
from django.template.loader import render_to_string

from ..web import devices

register = template.Library()


@register.simple_tag(takes_context=True)
def device_follow(context, table) -> str:
    request = context.get("request")
    if request is None or table is None:
        return ""
    device = devices.following(request, table)
    if device is None:
        return ""
    values = {
        "device": device,
        "closed": bool(context.get("closed")),
        "key": f"kreuzdame-outbox-{table.token}",
    }
    return render_to_string("tournament/device/_follow.html", values, request=request)
