#!/usr/bin/env bash
# Prepares this machine for the LXD tests and the LXD bench (root only). Idempotent: run it again and
# it only does what is missing.
#   - two stand-alone LXD daemons: the default one (/var/lib/lxd, unix socket) and a second one under
#     its own LXD_DIR (/var/lib/lxd-second) listening on https://127.0.0.4:8443, so that migrations
#     have somewhere to go and the https client path is exercised;
#   - an LXD cluster of two more daemons (/var/lib/lxd-cluster1 on https://127.0.0.2:8443, the
#     bootstrap member `hc-member1`, and /var/lib/lxd-cluster2 on https://127.0.0.3:8443, which
#     joins it as `hc-member2` with a join token): one Hostcloud node reached by the cluster's
#     address, whose instances LXD places on either member;
#   - on each stand-alone daemon and on the cluster: a `dir` storage pool `default` and a root disk
#     in the `default` profile (`lxd init` would also make a bridge, which needs dnsmasq; our
#     instances use `routed` NICs instead);
#   - a test client certificate (LXD_TEST_DIR/client.crt + .key) trusted by all three;
#   - a tiny busybox image (alias `hostcloud-test-busybox`) on all three (the cluster's images are
#     cluster-wide): /bin/sh, chpasswd, /etc/passwd, /etc/shadow and an inittab that runs a shell on
#     the console.
# The tests find everything through LXD_TEST_DIR/env (written last, so its presence means ready).
set -euo pipefail

LXD_TEST_DIR="${LXD_TEST_DIR:-/var/lib/hostcloud-lxd-test}"
FIRST_DIR="${LXD_FIRST_DIR:-/var/lib/lxd}"
SECOND_DIR="${LXD_SECOND_DIR:-/var/lib/lxd-second}"
SECOND_ADDR="${LXD_SECOND_ADDR:-127.0.0.4:8443}"
CLUSTER1_DIR="${LXD_CLUSTER1_DIR:-/var/lib/lxd-cluster1}"
CLUSTER2_DIR="${LXD_CLUSTER2_DIR:-/var/lib/lxd-cluster2}"
CLUSTER1_ADDR="${LXD_CLUSTER1_ADDR:-127.0.0.2:8443}"
CLUSTER2_ADDR="${LXD_CLUSTER2_ADDR:-127.0.0.3:8443}"
MEMBER1=hc-member1
MEMBER2=hc-member2
ALIAS="hostcloud-test-busybox"
LOG_DIR="${LXD_LOG_DIR:-/var/log}"

command -v lxd >/dev/null || { echo "lxd-setup: lxd is not installed (apt-get install -y nftables, then apt-get install -y lxd busybox-static)" >&2; exit 1; }
# The image's only binary must need no libraries: a static busybox (ldd refuses static binaries).
static() { [ -x "$1" ] && ! ldd "$1" >/dev/null 2>&1; }
BUSYBOX=""
for candidate in "$(command -v busybox || true)" /bin/busybox /usr/bin/busybox; do
  if [ -n "$candidate" ] && static "$candidate"; then BUSYBOX="$candidate"; break; fi
done
[ -n "$BUSYBOX" ] || { echo "lxd-setup: a statically linked busybox is needed (apt-get install -y busybox-static)" >&2; exit 1; }
mkdir -p "$LXD_TEST_DIR"
# Test files claim a network each while they run (test/helpers/lxd-app.ts); none runs now.
rm -rf "$LXD_TEST_DIR/nets"

# api DIR METHOD PATH [BODY]: one call on a daemon's unix socket; prints the answer's metadata.
api() {
  local dir="$1" method="$2" path="$3" body="${4:-}"
  local answer
  if [ -n "$body" ]; then
    answer="$(curl -sS --unix-socket "$dir/unix.socket" -X "$method" -H 'Content-Type: application/json' -d "$body" "http://lxd$path")"
  else
    answer="$(curl -sS --unix-socket "$dir/unix.socket" -X "$method" "http://lxd$path")"
  fi
  printf '%s' "$answer"
}
# ok ANSWER: true when the answer is not an LXD error.
ok() { ! printf '%s' "$1" | grep -q '"type":"error"'; }
# wait_op DIR ANSWER: waits for the async operation an answer started.
wait_op() {
  local op
  op="$(printf '%s' "$2" | sed -n 's/.*"operation":"\([^"]*\)".*/\1/p')"
  [ -n "$op" ] || return 0
  local done
  done="$(api "$1" GET "$op/wait?timeout=120")"
  ok "$done" && printf '%s' "$done" | grep -q '"status":"Success"' || { echo "lxd-setup: operation failed: $done" >&2; return 1; }
}

start_daemon() {
  local dir="$1" log="$2"
  if LXD_DIR="$dir" timeout 3 lxd waitready --timeout 2 >/dev/null 2>&1; then return; fi
  mkdir -p "$dir"
  echo "lxd-setup: starting the LXD daemon of $dir (log $log)"
  LXD_DIR="$dir" nohup lxd --group root >"$log" 2>&1 </dev/null &
  LXD_DIR="$dir" lxd waitready --timeout 60
}

prepare_daemon() {
  local dir="$1"
  if ! ok "$(api "$dir" GET /1.0/storage-pools/default)"; then
    local r
    r="$(api "$dir" POST /1.0/storage-pools '{"name":"default","driver":"dir"}')"
    ok "$r" || { echo "lxd-setup: storage pool on $dir: $r" >&2; exit 1; }
  fi
  if ! api "$dir" GET /1.0/profiles/default | grep -q '"root":{'; then
    local r
    r="$(api "$dir" PATCH /1.0/profiles/default '{"devices":{"root":{"type":"disk","path":"/","pool":"default"}}}')"
    ok "$r" || { echo "lxd-setup: default profile on $dir: $r" >&2; exit 1; }
  fi
}

# LXD picks its firewall driver once, when its daemon starts: with neither nft nor iptables it falls
# back to a driver whose command is missing, and every routed NIC (what our instances use) then
# fails to start ("Asked to setup IPv4 firewalling but iptables can't be found"). So nftables comes
# before any daemon, and a daemon that started without it is restarted.
ensure_firewall_tool() {
  if command -v nft >/dev/null 2>&1 || command -v iptables >/dev/null 2>&1; then return; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "lxd-setup: installing nftables (LXD's firewall driver: routed NICs need it)"
    { apt-get install -y nftables || { apt-get update && apt-get install -y nftables; }; } >/dev/null
  fi
  command -v nft >/dev/null 2>&1 || { echo "lxd-setup: LXD needs nft or iptables (apt-get install -y nftables)" >&2; exit 1; }
}
# firewall_missing DIR: true when the daemon's firewall driver has no command to run.
firewall_missing() {
  local driver
  driver="$(api "$1" GET /1.0 | sed -n 's/.*"firewall":"\([a-z]*\)".*/\1/p')"
  case "$driver" in
    xtables) ! command -v iptables >/dev/null 2>&1 ;;
    nftables) ! command -v nft >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}
restart_without_firewall() {
  local dir="$1" log="$2"
  firewall_missing "$dir" || return 0
  echo "lxd-setup: the LXD daemon of $dir started without a usable firewall driver: restarting it"
  if [ "$dir" = /var/lib/lxd ] && [ -d /run/systemd/system ] && systemctl is-active --quiet lxd 2>/dev/null; then
    systemctl restart lxd
    LXD_DIR="$dir" lxd waitready --timeout 60
  else
    LXD_DIR="$dir" lxd shutdown --timeout 60
    start_daemon "$dir" "$log"
  fi
  if firewall_missing "$dir"; then echo "lxd-setup: the LXD daemon of $dir still has no firewall driver" >&2; exit 1; fi
}

# clustered DIR: true when the daemon is a cluster member.
clustered() { api "$1" GET /1.0 | grep -q '"server_clustered":true'; }
# member_online NAME: true when the cluster lists the member as online.
member_online() { api "$CLUSTER1_DIR" GET "/1.0/cluster/members/$1" | grep -q '"status":"Online"'; }

# The cluster, with `lxd init --preseed` as an operator would form it: the first member bootstraps
# it (its https address, then clustering, the storage pool and the default profile's root disk,
# which become the cluster's); the second joins with a token from `lxc cluster add`, giving its own
# source for the pool (a `dir` pool's is under each member's LXD_DIR). Each step is skipped when
# done, so a run that stopped half-way is finished by the next.
form_cluster() {
  if ! clustered "$CLUSTER1_DIR"; then
    echo "lxd-setup: bootstrapping the LXD cluster on $CLUSTER1_ADDR ($MEMBER1)"
    LXD_DIR="$CLUSTER1_DIR" lxd init --preseed <<EOF
config:
  core.https_address: $CLUSTER1_ADDR
cluster:
  server_name: $MEMBER1
  enabled: true
storage_pools:
- name: default
  driver: dir
profiles:
- name: default
  devices:
    root: {path: /, pool: default, type: disk}
EOF
  fi
  # A member whose daemon was just started (CI after a reboot: the directories are there, the
  # daemons are not) takes a while to be seen online by the other: wait for it before judging.
  if clustered "$CLUSTER2_DIR"; then
    local settle=$((SECONDS + 90))
    until member_online "$MEMBER2" || [ "$SECONDS" -ge "$settle" ]; do sleep 1; done
  fi
  if ! member_online "$MEMBER2"; then
    if clustered "$CLUSTER2_DIR"; then
      echo "lxd-setup: $CLUSTER2_DIR is clustered but $MEMBER2 is not an online member of the cluster at $CLUSTER1_ADDR; remove $CLUSTER2_DIR (daemon stopped) and run again" >&2
      exit 1
    fi
    echo "lxd-setup: joining $CLUSTER2_ADDR to the cluster ($MEMBER2)"
    # A token left by a run that stopped before the join would make `cluster add` refuse.
    LXD_DIR="$CLUSTER1_DIR" lxc cluster revoke-token "$MEMBER2" >/dev/null 2>&1 || true
    local token cert
    token="$(LXD_DIR="$CLUSTER1_DIR" lxc cluster add "$MEMBER2" --quiet)"
    cert="$(sed 's/^/    /' "$CLUSTER1_DIR/cluster.crt")"
    LXD_DIR="$CLUSTER2_DIR" lxd init --preseed <<EOF
config:
  core.https_address: $CLUSTER2_ADDR
cluster:
  enabled: true
  server_name: $MEMBER2
  server_address: $CLUSTER2_ADDR
  cluster_address: $CLUSTER1_ADDR
  cluster_certificate: |
$cert
  cluster_token: $token
  member_config:
  - entity: storage-pool
    name: default
    key: source
    value: ""
EOF
  fi
  local deadline=$((SECONDS + 60))
  until member_online "$MEMBER1" && member_online "$MEMBER2"; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "lxd-setup: the cluster's members are not both online: $(api "$CLUSTER1_DIR" GET /1.0/cluster/members?recursion=1)" >&2; exit 1; }
    sleep 1
  done
}

ensure_firewall_tool
start_daemon "$FIRST_DIR" "$LOG_DIR/lxd-first.log"
start_daemon "$SECOND_DIR" "$LOG_DIR/lxd-second.log"
start_daemon "$CLUSTER1_DIR" "$LOG_DIR/lxd-cluster1.log"
start_daemon "$CLUSTER2_DIR" "$LOG_DIR/lxd-cluster2.log"
restart_without_firewall "$FIRST_DIR" "$LOG_DIR/lxd-first.log"
restart_without_firewall "$SECOND_DIR" "$LOG_DIR/lxd-second.log"
restart_without_firewall "$CLUSTER1_DIR" "$LOG_DIR/lxd-cluster1.log"
restart_without_firewall "$CLUSTER2_DIR" "$LOG_DIR/lxd-cluster2.log"
prepare_daemon "$FIRST_DIR"
prepare_daemon "$SECOND_DIR"
# Before the cluster: its second member listens where this daemon once did (127.0.0.3).
if ! api "$SECOND_DIR" GET /1.0 | grep -q "\"core.https_address\":\"$SECOND_ADDR\""; then
  r="$(api "$SECOND_DIR" PATCH /1.0 "{\"config\":{\"core.https_address\":\"$SECOND_ADDR\"}}")"
  ok "$r" || { echo "lxd-setup: https address of the second daemon: $r" >&2; exit 1; }
fi
form_cluster

# The test client certificate, trusted by both daemons (LXD's own kind: ECDSA P-384, ten years).
if [ ! -s "$LXD_TEST_DIR/client.crt" ] || [ ! -s "$LXD_TEST_DIR/client.key" ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:secp384r1 -nodes -days 3650 -subj "/CN=hostcloud-test" \
    -keyout "$LXD_TEST_DIR/client.key.tmp" -out "$LXD_TEST_DIR/client.crt.tmp" 2>/dev/null
  chmod 600 "$LXD_TEST_DIR/client.key.tmp"
  mv "$LXD_TEST_DIR/client.key.tmp" "$LXD_TEST_DIR/client.key"
  mv "$LXD_TEST_DIR/client.crt.tmp" "$LXD_TEST_DIR/client.crt"
fi
FINGERPRINT="$(openssl x509 -in "$LXD_TEST_DIR/client.crt" -noout -fingerprint -sha256 | sed 's/.*=//; s/://g' | tr 'A-F' 'a-f')"
CERT_JSON="$(sed '/-----/d' "$LXD_TEST_DIR/client.crt" | tr -d '\n')"
for dir in "$FIRST_DIR" "$SECOND_DIR" "$CLUSTER1_DIR"; do
  if ! ok "$(api "$dir" GET "/1.0/certificates/$FINGERPRINT")"; then
    r="$(api "$dir" POST /1.0/certificates "{\"type\":\"client\",\"name\":\"hostcloud-test\",\"certificate\":\"$CERT_JSON\"}")"
    ok "$r" || { echo "lxd-setup: trusting the test certificate on $dir: $r" >&2; exit 1; }
  fi
done

# The busybox test image: a unified tarball (metadata.yaml + rootfs/), imported once per daemon.
build_image() {
  local work="$1"
  local root="$work/rootfs"
  mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,root,tmp,proc,sys,dev,run,var/log}
  chmod 700 "$root/root"
  chmod 1777 "$root/tmp"
  cp "$BUSYBOX" "$root/bin/busybox"
  for applet in $("$BUSYBOX" --list); do
    [ "$applet" = busybox ] && continue
    ln -sf /bin/busybox "$root/bin/$applet"
  done
  ln -sf /bin/busybox "$root/sbin/init"
  # busybox-static has no chpasswd applet: this one does what chpasswd does for `user:password`
  # lines on stdin (SHA-512 crypt into /etc/shadow).
  cat >"$root/usr/sbin/chpasswd" <<'EOF'
#!/bin/sh
set -e
while IFS= read -r line; do
  user="${line%%:*}"
  pass="${line#*:}"
  hash="$(printf '%s' "$pass" | mkpasswd -m sha512 -P 0)"
  days=$(( $(date +%s) / 86400 ))
  awk -F: -v OFS=: -v u="$user" -v h="$hash" -v d="$days" '$1 == u { $2 = h; $3 = d } { print }' /etc/shadow >/etc/shadow.new
  chmod 600 /etc/shadow.new
  mv /etc/shadow.new /etc/shadow
done
EOF
  chmod 755 "$root/usr/sbin/chpasswd"
  printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
  printf 'root:*:19000:0:99999:7:::\n' >"$root/etc/shadow"
  chmod 600 "$root/etc/shadow"
  printf 'root:x:0:\n' >"$root/etc/group"
  printf 'hostcloud-test\n' >"$root/etc/hostname"
  # busybox init: a shell on the console (what the web console attaches to), respawned on exit;
  # SIGPWR (LXD's stop signal) and SIGTERM end it cleanly.
  cat >"$root/etc/inittab" <<'EOF'
::sysinit:/bin/mount -t tmpfs tmpfs /run
::sysinit:/bin/hostname -F /etc/hostname
::respawn:-/bin/sh
::shutdown:/bin/sync
EOF
  cat >"$root/etc/profile" <<'EOF'
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PS1='# '
EOF
  cat >"$work/metadata.yaml" <<EOF
architecture: x86_64
creation_date: $(date +%s)
properties:
  os: busybox
  release: "$("$BUSYBOX" | head -1 | awk '{print $2}')"
  description: Hostcloud test image (busybox)
templates: {}
EOF
  tar -C "$work" --numeric-owner --owner=0 --group=0 -czf "$work/image.tar.gz" metadata.yaml rootfs
}

IMAGE=""
for dir in "$FIRST_DIR" "$SECOND_DIR" "$CLUSTER1_DIR"; do
  if ok "$(api "$dir" GET "/1.0/images/aliases/$ALIAS")"; then continue; fi
  if [ -z "$IMAGE" ]; then
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
    build_image "$WORK"
    IMAGE="$WORK/image.tar.gz"
  fi
  echo "lxd-setup: importing the test image into $dir"
  r="$(curl -sS --unix-socket "$dir/unix.socket" -X POST -H 'Content-Type: application/octet-stream' \
    -H 'X-LXD-public: false' --data-binary "@$IMAGE" http://lxd/1.0/images)"
  wait_op "$dir" "$r"
  fp="$(api "$dir" GET "$(printf '%s' "$r" | sed -n 's/.*"operation":"\([^"]*\)".*/\1/p')" | sed -n 's/.*"fingerprint":"\([0-9a-f]*\)".*/\1/p')"
  [ -n "$fp" ] || fp="$(api "$dir" GET /1.0/images | grep -o '/1.0/images/[0-9a-f]*' | tail -1 | sed 's|.*/||')"
  r="$(api "$dir" POST /1.0/images/aliases "{\"name\":\"$ALIAS\",\"target\":\"$fp\"}")"
  ok "$r" || { echo "lxd-setup: alias on $dir: $r" >&2; exit 1; }
done

SERVER_FP="$(api "$SECOND_DIR" GET /1.0 | sed -n 's/.*"certificate_fingerprint":"\([0-9a-f]*\)".*/\1/p')"
# Every member answers https with the cluster's certificate: one fingerprint for the node.
CLUSTER_FP="$(api "$CLUSTER1_DIR" GET /1.0 | sed -n 's/.*"certificate_fingerprint":"\([0-9a-f]*\)".*/\1/p')"
cat >"$LXD_TEST_DIR/env.tmp" <<EOF
LXD_TEST_FIRST=unix:$FIRST_DIR/unix.socket
LXD_TEST_SECOND=https://$SECOND_ADDR
LXD_TEST_SECOND_SOCKET=unix:$SECOND_DIR/unix.socket
LXD_TEST_SECOND_FINGERPRINT=$SERVER_FP
LXD_TEST_CLUSTER=https://$CLUSTER1_ADDR
LXD_TEST_CLUSTER_SOCKET=unix:$CLUSTER1_DIR/unix.socket
LXD_TEST_CLUSTER_FINGERPRINT=$CLUSTER_FP
LXD_TEST_CLUSTER_MEMBERS=$MEMBER1,$MEMBER2
LXD_TEST_IMAGE=$ALIAS
LXD_TEST_CERT=$LXD_TEST_DIR/client.crt
LXD_TEST_KEY=$LXD_TEST_DIR/client.key
EOF
mv "$LXD_TEST_DIR/env.tmp" "$LXD_TEST_DIR/env"
echo "lxd-setup: ready (default daemon on $FIRST_DIR, second on https://$SECOND_ADDR, cluster $MEMBER1 https://$CLUSTER1_ADDR + $MEMBER2 https://$CLUSTER2_ADDR, image $ALIAS)"
