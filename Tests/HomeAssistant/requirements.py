"""Prints the Python requirements of the integrations a test Home Assistant loads, one a line.

Run with the Home Assistant venv's Python: the integrations every start loads (its bootstrap's
lists), those named as arguments, and their dependencies, read from their manifests. Installed
with the venv, they spare Home Assistant's first start its own installs (slow, unpinned, and a
network access in the middle of the test).
"""
import json
import pathlib
import sys

from homeassistant import bootstrap
import homeassistant.components

components = pathlib.Path(homeassistant.components.__file__).parent
wanted = set(sys.argv[1:]) | bootstrap.CORE_INTEGRATIONS | bootstrap.DEFAULT_INTEGRATIONS
for _, names, _ in bootstrap.STAGE_0_INTEGRATIONS:
    wanted |= set(names)
seen, requirements = set(), set()
while wanted:
    name = wanted.pop()
    manifest = components / name / "manifest.json"
    if name in seen or not manifest.exists():
        continue
    seen.add(name)
    data = json.loads(manifest.read_text())
    requirements.update(data.get("requirements", []))
    wanted.update(data.get("dependencies", []))
print("\n".join(sorted(requirements)))
