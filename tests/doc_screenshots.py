"""Make the README's screenshots of publishing (a maintainer's helper, not a test).

    .venv/bin/python tests/doc_screenshots.py docs/publish

Publishes the project into a temporary folder and takes, with headless Chromium, the
index and the article in every language; then exports the project with
``tolmach publish --to`` for each site generator, builds it with the real generator the
way ``tests/test_publish_export.py`` does, and takes the German page. The generators
must be installed as for the tests (see ``.ci/run``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from test_publish_export import (
    DOCUSAURUS_CONFIG,
    GENERATORS_DIR,
    HUGO_SINGLE,
    run,
)

from tolmach.config import load_config
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site
from tolmach.publish.export import export_site
from tolmach.publish.screenshots import screenshot_targets, take_screenshots

REPO = Path(__file__).resolve().parent.parent
SIZE = {"width": 1100, "height": 540}


def site_shots(project: Project, work: Path, out: Path) -> None:
    site = work / "site"
    publish_site(project, site, PublishOptions(review=None, search=True))
    targets = [(f"site-{name}", url) for name, url in screenshot_targets(project, site_dir=site)]
    take_screenshots(site, targets, out, **SIZE)


def generator_shots(project: Project, work: Path, out: Path) -> None:
    page = "rocm7"
    builds = {
        "mkdocs": (_mkdocs, "site", f"de/{page}/"),
        "hugo": (_hugo, "public", f"de/{page}/"),
        "vitepress": (_vitepress, "docs/.vitepress/dist", f"de/{page}.html"),
        "docusaurus": (_docusaurus, "build", f"de/docs/{page}/"),
    }
    for name, (build, built, url) in builds.items():
        folder = work / name
        result = export_site(project, name, folder, locales=("en", "de"))
        build(folder, result)
        take_screenshots(folder / built, [(f"{name}-de.png", url)], out, **SIZE)


def _mkdocs(folder: Path, result) -> None:
    (folder / "mkdocs.yml").write_text(
        "site_name: ROCm 7\ndocs_dir: docs\ntheme:\n  name: material\n"
        + result.config_file.read_text("utf-8"), "utf-8")
    run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"], folder,
        env={"NO_MKDOCS_2_WARNING": "1"})


def _hugo(folder: Path, result) -> None:
    (folder / "hugo.toml").write_text(
        'baseURL = "http://127.0.0.1/"\ntitle = "ROCm 7"\n'
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
        + result.config_file.read_text("utf-8"), "utf-8")
    layouts = folder / "layouts" / "_default"
    layouts.mkdir(parents=True)
    (layouts / "single.html").write_text(HUGO_SINGLE, "utf-8")
    (layouts / "list.html").write_text(HUGO_SINGLE, "utf-8")
    run(["hugo", "--quiet", "-d", "public"], folder)


def _vitepress(folder: Path, result) -> None:
    (folder / "node_modules").symlink_to(GENERATORS_DIR / "vitepress" / "node_modules")
    config = folder / "docs" / ".vitepress" / "config.mjs"
    config.parent.mkdir(parents=True)
    config.write_text(f"import {{ locales }} from '../../{result.config_file.name}'\n"
                      "export default { title: 'ROCm 7', locales }\n", "utf-8")
    run([str(folder / "node_modules" / ".bin" / "vitepress"), "build", "docs"], folder)


def _docusaurus(folder: Path, result) -> None:
    (folder / "node_modules").symlink_to(GENERATORS_DIR / "docusaurus" / "node_modules")
    (folder / "docusaurus.config.js").write_text(DOCUSAURUS_CONFIG % result.config_file.name)
    (folder / "src" / "pages").mkdir(parents=True)
    (folder / "src" / "pages" / "index.md").write_text("# ROCm 7\n", "utf-8")
    run([str(folder / "node_modules" / ".bin" / "docusaurus"), "build", "--out-dir", "build"],
        folder, timeout=1200)


def main(out: Path) -> None:
    project = Project(load_config(REPO))
    with tempfile.TemporaryDirectory(prefix="tolmach-shots-") as work:
        site_shots(project, Path(work), out)
        generator_shots(project, Path(work), out)
    for path in sorted(out.glob("*.png")):
        print(f"{path}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/publish").resolve())
