import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..models import Entry, EntryStatus
from ..models.names import name_matches, query_words


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
        """Part of a name, however umlauts, accents or case were typed ("Mueller", "muller"
        and "Müller" find Müller; see tournament.models.names), or a start number. The names of one
        tournament's entries are few enough to be folded here rather than in the database."""
        value = value.strip()
        if not value:
            return queryset
        condition = Q(pk__in=[])
        if value.isdecimal() and len(value) < 10:
            condition |= Q(start_number=int(value))
        words = query_words(value)
        if words:
            names = queryset.values_list("pk", "player__first_name", "player__last_name")
            ids = [pk for pk, first, last in names if name_matches(words, first, last)]
            condition |= Q(pk__in=ids)
        return queryset.filter(condition)
