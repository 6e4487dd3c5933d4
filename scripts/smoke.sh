#!/usr/bin/env bash
# Starts `npm start` on a fresh DATA_DIR (embedded PostgreSQL), waits for /healthz, creates a
# customer with `hostcloud admin`, reads the balance with the new key, creates a server and waits
# for the embedded worker to provision it, loads the customer panel and the operator console, then stops with SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
chmod 755 "$dir"
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
log="$dir/serve.log"
# Its own process group, so SIGTERM reaches npm, sh and node together, as Ctrl-C in a terminal does.
DATA_DIR="$dir/data" PORT=$port LOG_LEVEL=warn SIM_DELAY_MS=100 setsid npm start >"$log" 2>&1 &
pid=$!
cleanup() { kill -KILL -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT

for i in $(seq 1 60); do
  if curl -fs "http://127.0.0.1:$port/healthz" >/dev/null; then break; fi
  sleep 0.5
  if [ "$i" = 60 ]; then echo "server did not answer /healthz in 30 s"; cat "$log"; exit 1; fi
done
echo "healthz answered after ~$((i / 2)) s"
# The banner is text on a terminal and one JSON line when piped (as here).
grep -q -e 'Admin token' -e '"admin_token":' "$log" || { echo "admin token was not printed"; cat "$log"; exit 1; }

out=$(DATA_DIR="$dir/data" node bin/hostcloud.js admin --url "http://127.0.0.1:$port" accounts create \
  --email smoke@example.com --name Smoke --deposit 100 --key 127.0.0.1/32)
key=$(printf '%s\n' "$out" | sed -n 's/^API key (shown once, store it now): //p')
[ -n "$key" ] || { echo "no key printed"; echo "$out"; exit 1; }
balance=$(curl -fs -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v2/billing/balance")
echo "balance: $balance"
echo "$balance" | grep -q '"amount":"100.00"' || { echo "unexpected balance"; exit 1; }

created=$(curl -fs -H "Authorization: Bearer $key" -H 'content-type: application/json' -H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" \
  -d '{"name":"smoke.example.com","location_id":1,"plan_id":1,"os_version_id":1,"password":"Sm0ke!Passw0rd"}' "http://127.0.0.1:$port/v2/servers")
op=$(printf '%s' "$created" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.operation.id))')
for i in $(seq 1 60); do
  status=$(curl -fs -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v2/operations/$op" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.status))')
  [ "$status" = completed ] && break
  [ "$status" = failed ] && { echo "provisioning failed"; exit 1; }
  sleep 0.5
  if [ "$i" = 60 ]; then echo "operation $op still $status after 30 s"; cat "$log"; exit 1; fi
done
echo "server provisioned by the embedded worker: operation $op $status"

# The customer panel: its page, its script (built by this process, from npm packages only), and /me.
curl -fs "http://127.0.0.1:$port/panel/sign-in" | grep -q '<div id="app">' || { echo "no panel page"; exit 1; }
script=$(curl -fs "http://127.0.0.1:$port/panel" | sed -n 's/.*src="\(\/panel\/assets\/app\.js[^"]*\)".*/\1/p')
curl -fs -o /dev/null "http://127.0.0.1:$port$script" || { echo "the panel's script did not load"; exit 1; }
curl -fs "http://127.0.0.1:$port/panel/api/me" | grep -q '"signed_in":false' || { echo "panel /me did not answer"; exit 1; }

# The operator console: its page and script, and the staff session it starts from.
curl -fs "http://127.0.0.1:$port/admin" | grep -q '<title>Hostcloud console</title>' || { echo "no console page"; exit 1; }
script=$(curl -fs "http://127.0.0.1:$port/admin" | sed -n 's/.*src="\(\/admin\/assets\/app\.js[^"]*\)".*/\1/p')
curl -fs -o /dev/null "http://127.0.0.1:$port$script" || { echo "the console's script did not load"; exit 1; }
curl -fs "http://127.0.0.1:$port/admin/v1/session" | grep -q '"stage":"signed_out"' || { echo "console session did not answer"; exit 1; }
echo "panel: page, script and /me answered"

kill -TERM -- "-$pid"
# The server says it stopped cleanly only once it has seen PostgreSQL go (it looks every 100 ms):
# wait for both, rather than read the log the moment PostgreSQL is gone.
for i in $(seq 1 40); do
  if ! pgrep -f "$dir/data/pg" >/dev/null && grep -q 'stopped cleanly' "$log"; then break; fi
  sleep 0.25
done
if pgrep -f "$dir/data/pg" >/dev/null; then echo "embedded PostgreSQL still running after SIGTERM"; exit 1; fi
grep -q 'stopped cleanly' "$log" || { echo "no clean shutdown"; cat "$log"; exit 1; }
echo "smoke: ok"
