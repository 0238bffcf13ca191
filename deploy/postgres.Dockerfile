# syntax=docker/dockerfile:1
#
# PostgreSQL 15 with pgvector, for deploy/compose.yaml. Build context: deploy/.
#
# pgvector is built from Debian trixie's source package exactly as
# deploy/setup.sh does on a bookworm machine (a private deb-src list, apt-get
# source --download-only, dpkg-source -x, make with postgresql-server-dev-15),
# so compose runs the same pgvector (0.8.0) as `make run` and the tests. The
# official pgvector/pgvector:pg15 image would also work; it tracks upstream
# releases instead, which is why it is not used here.
#
# The build runs in its own stage and only the installed files are copied
# into a clean postgres image, so compilers never reach the runtime image.

ARG PG_MAJOR=15

FROM postgres:${PG_MAJOR}-bookworm AS pgvector
ARG PG_MAJOR
ARG DEBIAN_MIRROR=http://deb.debian.org/debian
RUN <<'EOF'
#!/bin/bash
set -euo pipefail
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	"postgresql-server-dev-$PG_MAJOR" build-essential dpkg-dev ca-certificates >/dev/null
work=/tmp/pgvector
mkdir -p "$work/lists/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $DEBIAN_MIRROR trixie main" >"$work/trixie-src.list"
aptopts=(-o "Dir::Etc::SourceList=$work/trixie-src.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$work/lists"
	-o APT::Sandbox::User=root)
apt-get "${aptopts[@]}" update -qq
cd "$work"
apt-get "${aptopts[@]}" source --download-only pgvector
dpkg-source -x --no-check pgvector_*.dsc src
# Debian's no-native patch already drops -march=native; OPTFLAGS="" keeps the
# image portable across CPUs even if that patch ever goes away.
make -C src PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" OPTFLAGS=""
make -C src PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" OPTFLAGS="" DESTDIR=/out install
test -f "/out/usr/share/postgresql/$PG_MAJOR/extension/vector.control"
EOF

FROM postgres:${PG_MAJOR}-bookworm
COPY --from=pgvector /out/ /
# selah's first migration runs CREATE EXTENSION IF NOT EXISTS vector as the
# POSTGRES_USER superuser, so no init script is needed.
