"""Accounts of the tournament office: directors, created from the command line or on the
hall laptop's first start."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field
from django.utils.translation import gettext as _

from ..errors import DomainError
from ..models.audit import DIRECTOR_ACCOUNTS, DIRECTOR_GROUP


def director_exists() -> bool:
    """Is there an active account that can direct a tournament (a director or a superuser)?"""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(DIRECTOR_ACCOUNTS).exists()


def create_director(username: str, password: str, *, first_name="", last_name=""):
    """A new director account; refused with a message when the name is taken or the
    password is too weak (Django's password validators)."""
    username = username.strip()
    User = get_user_model()
    # The user name is a column of the user table, never a relation.
    field = cast("Field[Any, Any]", User._meta.get_field(User.USERNAME_FIELD))
    try:
        field.run_validators(username)
        if not username:
            raise ValidationError(_("Enter a user name."))
    except ValidationError as exc:
        raise DomainError(" ".join(exc.messages)) from None
    if User.objects.filter(username__iexact=username).exists():
        raise DomainError(_("The user name %(name)s is taken.") % {"name": username})
    candidate = User(username=username, first_name=first_name, last_name=last_name)
    try:
        validate_password(password, candidate)
    except ValidationError as exc:
        raise DomainError(" ".join(exc.messages)) from None
    with transaction.atomic():
        user = User.objects.create_user(
            username=username, password=password, first_name=first_name, last_name=last_name
        )
        user.groups.add(Group.objects.get_or_create(name=DIRECTOR_GROUP)[0])
    return user
