"""Players that online registrations made before version 0028 (issue 34, DDV-number
squatting): such a player held whatever name and DDV number a stranger typed. Those of
tournaments not begun yet become "not verified" like a new online registration: the DDV
number goes back onto the registration (where it is kept already) and the director accepts
it on the registrations page. Players that also play elsewhere, or in a tournament that has
begun, are left as they are: their results are reported with them."""

from django.db import migrations


def unverify(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    Entry = apps.get_model("tournament", "Entry")
    Registration = apps.get_model("tournament", "Registration")
    online = Registration.objects.filter(entry__isnull=False).select_related(
        "entry__player", "entry__tournament"
    )
    for registration in online:
        entry = registration.entry
        player = entry.player
        if player.unverified or entry.tournament.rounds.exists():
            continue  # accepted already, or a tournament that has begun
        if Entry.objects.filter(player=player).exclude(pk=entry.pk).exists():
            continue  # the player's data are other tournaments' too: a director's to judge
        if player.ddv_number and not registration.ddv_number:
            registration.ddv_number = player.ddv_number
            registration.save(update_fields=["ddv_number"])
        Player.objects.filter(pk=player.pk).update(unverified=True, ddv_number="")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0030_publication_consent"),
    ]

    operations = [migrations.RunPython(unverify, migrations.RunPython.noop)]
