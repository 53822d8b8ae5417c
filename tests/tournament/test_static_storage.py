"""The keeper phone's script is made of ES modules (outbox*.js). With DEBUG off (``make hall``)
the static files get hashed names, cached for a year: the modules' imports must name the
hashed files too, each of which exists, or a phone could run an old module beside a new one."""

import re
import shutil
from pathlib import Path

from django.conf import settings

from tournament.web.static_storage import ModuleManifestStorage

STATIC = Path(settings.BASE_DIR) / "tournament" / "static"
IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";', re.MULTILINE | re.DOTALL)


def test_the_modules_import_each_other_by_their_hashed_names(tmp_path):
    modules = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.glob("tournament/*.js"))
    assert "tournament/outbox-queue.js" in modules
    for name in modules:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(STATIC / name, tmp_path / name)
    storage = ModuleManifestStorage(location=tmp_path)
    for _original, _processed, error in storage.post_process(
        {name: (storage, name) for name in modules}
    ):
        assert not isinstance(error, Exception), error

    entry = storage.stored_name("tournament/outbox.js")
    assert re.fullmatch(r"tournament/outbox\.[0-9a-f]{12}\.js", entry)
    seen = {entry}
    todo = [entry]
    while todo:  # every module the page loads, through its imports
        name = todo.pop()
        for target in IMPORT.findall((tmp_path / name).read_text()):
            assert re.fullmatch(r"\./outbox-[a-z]+\.[0-9a-f]{12}\.js", target), (name, target)
            path = f"tournament/{target[2:]}"
            assert (tmp_path / path).is_file(), path
            if path not in seen:
                seen.add(path)
                todo.append(path)
    assert len(seen) == 5  # outbox.js and its queue, store, view and net modules
