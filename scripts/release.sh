#!/usr/bin/env bash
# Tags a release (the Release workflow runs it; a maintainer can too): the version X.Y.Z in
# package.json becomes the annotated tag vX.Y.Z at HEAD, the major tag vX is moved to the same
# commit, and both are pushed to RELEASE_REMOTE (default origin). Refuses a version that is not
# X.Y.Z, one without a "## [X.Y.Z]" section in CHANGELOG.md, a tag that exists, a vX that points
# at a later version, and a dirty work tree. RELEASE_NOTES=FILE receives the CHANGELOG section;
# with GITHUB_OUTPUT set, `tag=vX.Y.Z` is written there.
set -euo pipefail

die() {
  echo "release: $*" >&2
  exit 1
}

remote="${RELEASE_REMOTE:-origin}"
version="$(node -p 'require("./package.json").version')"
[[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] ||
  die "package.json version '$version' is not X.Y.Z (no pre-release or build suffix)"
tag="v$version"
major="v${BASH_REMATCH[1]}"

notes="$(awk -v v="$version" '
  index($0, "## [" v "]") == 1 { on = 1; next }
  on && /^## / { exit }
  on { print }
' CHANGELOG.md)"
[ -n "$(tr -d '[:space:]' <<<"$notes")" ] || die "CHANGELOG.md has no '## [$version]' section with text"

[ -z "$(git status --porcelain)" ] || die "the work tree has uncommitted changes"
git fetch --quiet --force "$remote" "+refs/tags/*:refs/tags/*"
if git rev-parse --quiet --verify "refs/tags/$tag" >/dev/null; then
  die "$tag exists already (at $(git rev-list -n 1 "$tag")): raise the version in package.json"
fi
# vX only moves forward: never from a later release back to this one.
if current="$(git describe --tags --exact-match --match 'v*.*.*' "$major^{commit}" 2>/dev/null)"; then
  newest="$(printf '%s\n%s\n' "${current#v}" "$version" | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)"
  [ "$newest" = "$version" ] || die "$major points at $current, later than $tag"
fi

git tag --annotate --message "$tag" "$tag"
git tag --force --annotate --message "$major: $tag" "$major"
git push --quiet "$remote" "refs/tags/$tag"
git push --quiet --force "$remote" "refs/tags/$major"
echo "released $tag at $(git rev-parse --short HEAD); $major moved to it"

if [ -n "${RELEASE_NOTES:-}" ]; then printf '%s\n' "$notes" >"$RELEASE_NOTES"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "tag=$tag" >>"$GITHUB_OUTPUT"; fi
