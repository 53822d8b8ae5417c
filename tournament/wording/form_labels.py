"""Form labels start with a capital letter, in every form of the site.

Django's convention is a lower-case ``verbose_name`` ("rule profile"); a ModelForm shows it
with a capital, a plain Form (the calculator, the filters, the list keeper's forms) shows it
as written. One renderer for all forms (settings.FORM_RENDERER) makes them alike, in English
as in German, without capitalising every message by hand.
"""

from django.forms.boundfield import BoundField
from django.forms.renderers import DjangoTemplates
from django.utils.text import capfirst


class CapitalisedBoundField(BoundField):
    def __init__(self, form, field, name):
        super().__init__(form, field, name)
        self.label = capfirst(self.label)


class FormRenderer(DjangoTemplates):
    bound_field_class = CapitalisedBoundField
