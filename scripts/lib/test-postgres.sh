# Sourced by scripts/test (bash).  When QISAI_TEST_POSTGRES_URL is unset and
# PostgreSQL's programs are installed (scripts/install-tools), start a private
# PostgreSQL for the tests: a new cluster in a temporary folder, on a free
# loopback port, trust authentication for the role qisai, stopped and removed
# when the script ends.  It touches no cluster of the machine's (CI's .ci/run
# sets QISAI_TEST_POSTGRES_URL to its own and this does nothing).  Without
# PostgreSQL's programs it says so and the PostgreSQL runs of the tests skip.

qisai_pg_dir=""
qisai_pg_bin=""
qisai_pg_as=()

qisai_pg_stop() {
  if [ -n "${qisai_pg_dir}" ] && [ -d "${qisai_pg_dir}" ]; then
    "${qisai_pg_as[@]}" "${qisai_pg_bin}/pg_ctl" -D "${qisai_pg_dir}/data" -m immediate stop \
      >/dev/null 2>&1 || true
    rm -rf "${qisai_pg_dir}"
  fi
  qisai_pg_dir=""
}

qisai_pg_start() {
  if [ -n "${QISAI_TEST_POSTGRES_URL:-}" ]; then
    echo "PostgreSQL: QISAI_TEST_POSTGRES_URL is set, the tests use it"
    return 0
  fi
  qisai_pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "${qisai_pg_bin}" ] || [ ! -x "${qisai_pg_bin}/initdb" ]; then
    echo "PostgreSQL is not installed (scripts/install-tools installs it): its test runs skip" >&2
    return 0
  fi
  # initdb refuses to run as root: then the cluster belongs to the postgres user.
  qisai_pg_as=()
  if [ "$(id -u)" = "0" ]; then
    if ! id postgres >/dev/null 2>&1; then
      echo "PostgreSQL: running as root without a postgres user: its test runs skip" >&2
      return 0
    fi
    qisai_pg_as=(runuser -u postgres --)
  fi
  qisai_pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/qisai-test-pg.XXXXXX")
  chmod 755 "${qisai_pg_dir}"
  [ "${#qisai_pg_as[@]}" -gt 0 ] && chown postgres "${qisai_pg_dir}"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if "${qisai_pg_as[@]}" "${qisai_pg_bin}/initdb" -D "${qisai_pg_dir}/data" -U qisai -A trust \
        -E UTF8 --no-locale >"${qisai_pg_dir}/initdb.log" 2>&1 \
     && "${qisai_pg_as[@]}" "${qisai_pg_bin}/pg_ctl" -D "${qisai_pg_dir}/data" -w -t 60 \
        -l "${qisai_pg_dir}/server.log" \
        -o "-p ${port} -k ${qisai_pg_dir} -c listen_addresses=127.0.0.1 -c fsync=off" start \
        >/dev/null 2>&1 \
     && "${qisai_pg_as[@]}" "${qisai_pg_bin}/createdb" -h 127.0.0.1 -p "${port}" -U qisai \
        qisai_test >/dev/null 2>&1; then
    export QISAI_TEST_POSTGRES_URL="postgresql+psycopg://qisai@127.0.0.1:${port}/qisai_test"
    echo "PostgreSQL: a private server on 127.0.0.1:${port} for the tests (stopped at the end)"
  else
    echo "PostgreSQL could not be started here (see below): its test runs skip" >&2
    tail -n 5 "${qisai_pg_dir}/initdb.log" "${qisai_pg_dir}/server.log" 2>/dev/null >&2 || true
    qisai_pg_stop
  fi
}
