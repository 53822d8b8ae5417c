import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import Entry, EntryStatus


class EntryFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(label=_("name or number"), method="filter_query")
    club = django_filters.CharFilter(
        label=_("club"), field_name="player__club", lookup_expr="icontains"
    )
    status = django_filters.ChoiceFilter(
        label=_("status"), choices=EntryStatus.choices, empty_label=_("all")
    )

    class Meta:
        model = Entry
        fields = ["q", "club", "status"]

    def filter_query(self, queryset, name, value):
        value = value.strip()
        condition = Q(player__last_name__icontains=value) | Q(player__first_name__icontains=value)
        if value.isdecimal() and len(value) < 10:
            condition |= Q(start_number=int(value))
        return queryset.filter(condition)
