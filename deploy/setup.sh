#!/usr/bin/env bash
# setup.sh prepares a Debian machine for selah: PostgreSQL with pgvector, Redis,
# the SWORD corpus packages and the tools the tests use. It is idempotent and
# says nothing when everything is already in place, so `make run` and
# `make test` can call it every time.
set -euo pipefail

PGVER=${PGVER:-15}
DB_NAME=${SELAH_DB_NAME:-selah}
PGHOST_ADDR=${PGHOST_ADDR:-127.0.0.1}
PGUSER_NAME=${PGUSER_NAME:-root}
STATE_DIR=${SELAH_STATE_DIR:-/var/cache/selah-setup}
# Packages selah needs at run time (corpus: the Bibles, Nave's, Strong's
# lexicons, WordNet), to retrain the word vectors (fasttext, driven by
# `selah train`) and in tests (diatheke, chromium).
PACKAGES=(sword-text-kjv sword-text-web sword-dict-naves sword-dict-strongs-greek sword-dict-strongs-hebrew wordnet-base fasttext diatheke chromium)

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || die "run as root or install sudo"
	SUDO="sudo"
fi

# quietly runs a command, keeping its output in a log that is shown only
# when it fails: a second run of this script prints nothing.
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
quietly() {
	if ! "$@" >"$LOG" 2>&1; then
		cat "$LOG" >&2
		return 1
	fi
}

apt_updated=0
apt_install() {
	if [ "$apt_updated" -eq 0 ]; then
		say "apt-get update"
		quietly $SUDO apt-get update -qq || die "apt-get update failed"
		apt_updated=1
	fi
	say "installing $*"
	quietly $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" \
		|| die "apt-get install $* failed"
}

missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
	done
}

psql_admin() { psql -h "$PGHOST_ADDR" -U "$PGUSER_NAME" -d postgres -v ON_ERROR_STOP=1 -qtAX "$@"; }

# --- PostgreSQL -------------------------------------------------------------
if ! command -v pg_isready >/dev/null || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
	apt_install "postgresql-$PGVER" postgresql-client
fi
if ! pg_isready -q -h "$PGHOST_ADDR" -p 5432; then
	say "starting PostgreSQL"
	$SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start \
		|| die "could not start PostgreSQL"
	for _ in $(seq 1 30); do pg_isready -q -h "$PGHOST_ADDR" -p 5432 && break; sleep 0.5; done
	pg_isready -q -h "$PGHOST_ADDR" -p 5432 || die "PostgreSQL did not come up on $PGHOST_ADDR:5432"
fi
if ! psql_admin -c 'select 1' >/dev/null 2>&1; then
	# A fresh Debian install has no role for root and no TCP trust; give the
	# local superuser role the name this script connects as.
	say "creating PostgreSQL role $PGUSER_NAME"
	$SUDO -u postgres psql -qtAX -c "create role \"$PGUSER_NAME\" superuser login" >/dev/null 2>&1 || true
	psql_admin -c 'select 1' >/dev/null 2>&1 || die "cannot connect to PostgreSQL as $PGUSER_NAME on $PGHOST_ADDR"
fi
if [ -z "$(psql_admin -c "select 1 from pg_database where datname = '$DB_NAME'")" ]; then
	say "creating database $DB_NAME"
	psql_admin -c "create database \"$DB_NAME\"" >/dev/null || die "could not create database $DB_NAME"
fi

# --- pgvector ---------------------------------------------------------------
if [ -z "$(psql_admin -c "select 1 from pg_available_extensions where name = 'vector'")" ]; then
	say "building pgvector from Debian trixie's source package"
	missing=$(missing_packages "postgresql-server-dev-$PGVER" build-essential dpkg-dev)
	[ -n "$missing" ] && apt_install $missing
	work=$(mktemp -d)
	trap 'rm -rf "$work" "$LOG"' EXIT
	# apt drops privileges to _apt for downloads; let it write here.
	chmod 755 "$work"
	mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
		| head -n1 | awk '{print $2}' || true)
	mirror=${mirror:-http://deb.debian.org/debian}
	mkdir -p "$work/lists/partial"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" >"$work/trixie-src.list"
	aptopts=(-o "Dir::Etc::SourceList=$work/trixie-src.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$work/lists"
		-o APT::Sandbox::User=root)
	quietly $SUDO apt-get "${aptopts[@]}" update -qq || die "could not read trixie source lists"
	(cd "$work" && quietly apt-get "${aptopts[@]}" source --download-only pgvector) \
		|| die "could not download the pgvector source package"
	(cd "$work" && quietly dpkg-source -x --no-check pgvector_*.dsc src) || die "could not unpack pgvector"
	quietly make -s -C "$work/src" PG_CONFIG="/usr/lib/postgresql/$PGVER/bin/pg_config" || die "pgvector build failed"
	quietly $SUDO make -s -C "$work/src" PG_CONFIG="/usr/lib/postgresql/$PGVER/bin/pg_config" install || die "pgvector install failed"
	[ -n "$(psql_admin -c "select 1 from pg_available_extensions where name = 'vector'")" ] \
		|| die "pgvector installed but PostgreSQL does not see it"
	say "pgvector $(psql_admin -c "select default_version from pg_available_extensions where name = 'vector'") installed"
fi

# --- Redis ------------------------------------------------------------------
if ! command -v redis-server >/dev/null; then
	apt_install redis-server
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
	say "starting Redis"
	$SUDO mkdir -p /var/lib/redis /var/log/redis
	$SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
		--dir /var/lib/redis --logfile /var/log/redis/selah.log >/dev/null || die "could not start Redis"
	for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
	redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || die "Redis did not come up on 127.0.0.1:6379"
fi

# --- Benchmark tools ----------------------------------------------------------
# make bench measures the floors with the databases' own tools: pgbench
# (postgresql-contrib) and redis-benchmark (redis-tools).
command -v pgbench >/dev/null || apt_install postgresql-contrib
command -v redis-benchmark >/dev/null || apt_install redis-tools

# --- Corpus and test tools --------------------------------------------------
missing=$(missing_packages "${PACKAGES[@]}")
if [ -n "$missing" ]; then
	apt_install $missing
fi
[ -f /usr/share/sword/mods.d/kjv.conf ] || ls /usr/share/sword/mods.d/ | grep -qi kjv || die "KJV module missing under /usr/share/sword"
exit 0
