#!/usr/bin/env bash
# A throw-away one-node Slurm cluster on this machine, for the fleet tests (and for trying
# `opcost fleet` by hand). Everything lives in DIR: munge key and socket, slurm.conf, state,
# spool, logs and pid files; nothing under /etc is used or changed.
#
#   scripts/slurm-test-cluster.sh start DIR   # installs slurm-wlm and munge when missing,
#                                             # starts munged, slurmctld and slurmd, waits
#                                             # for the node; prints SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-test-cluster.sh stop DIR    # cancels the cluster's jobs, stops the daemons
#
# The node is this host (2 CPUs) in two partitions, `alpha` (default) and `beta`. Clients
# find the cluster through SLURM_CONF: `export SLURM_CONF=DIR/slurm.conf`. The ports are
# free ones picked at start. Exit status 3: the daemons cannot start here (the reason is
# printed); any other failure: 1.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 2
}
[[ $# -eq 2 ]] || usage
cmd=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)

install_missing() {
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
        command -v munged >/dev/null && command -v sbatch >/dev/null && return 0
    local sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    echo "installing slurm-wlm and munge from Debian's packages" >&2
    local install=(env DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq slurm-wlm munge)
    # Package lists that are missing or stale: update them, then try again.
    "${install[@]}" >&2 || { $sudo apt-get update -qq && "${install[@]}" >&2; }
}

# A TCP port nobody listens on, from 20000 + a random offset.
free_port() {
    local used port
    used=$(ss -Htln 2>/dev/null | awk '{print $4}' | sed 's/.*://' || true)
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 20000))
        grep -qx "$port" <<<"$used" || { echo "$port"; return; }
    done
    echo 0
}

write_conf() {
    local node=$1 ctld_port=$2 slurmd_port=$3
    cat >"$dir/slurm.conf" <<EOF
# One-node test cluster of opcost (scripts/slurm-test-cluster.sh)
ClusterName=opcosttest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket.2
CredType=cred/munge
SlurmUser=$(id -un)
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=600
KillWait=5
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=512 State=UNKNOWN
PartitionName=alpha Nodes=$node Default=YES MaxTime=INFINITE State=UP
PartitionName=beta Nodes=$node MaxTime=INFINITE State=UP
EOF
}

start_munge() {
    mkdir -p "$dir/munge"
    chmod 700 "$dir/munge"
    [[ -f $dir/munge/munge.key ]] ||
        dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 600 "$dir/munge/munge.key"
    munged --force --socket="$dir/munge/munge.socket.2" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed"
}

# Wait up to 30 s for the node to be idle; prints the reason when it is not.
wait_for_node() {
    local state=""
    for _ in $(seq 1 60); do
        state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
        case $state in
        idle*) return 0 ;;
        down* | drain*) scontrol update nodename="$1" state=resume >/dev/null 2>&1 || true ;;
        esac
        sleep 0.5
    done
    echo "the node did not become idle (state: ${state:-none})" >&2
    return 1
}

# The daemons cannot start here: say which and why (the end of its log, which goes with DIR),
# stop what did start, exit 3.
cannot_start() {
    echo "$1 cannot start here; the end of $2:" >&2
    tail -n 5 "$2" >&2 2>/dev/null || true
    stop
    exit 3
}

start() {
    install_missing || { echo "cannot install slurm-wlm and munge" >&2; exit 3; }
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    local node
    node=$(hostname -s)
    write_conf "$node" "$(free_port)" "$(free_port)"
    export SLURM_CONF=$dir/slurm.conf
    start_munge || cannot_start munged "$dir/munge/munged.log"
    slurmctld -c -f "$SLURM_CONF" || cannot_start slurmctld "$dir/log/slurmctld.log"
    slurmd -f "$SLURM_CONF" -N "$node" || cannot_start slurmd "$dir/log/slurmd.log"
    wait_for_node "$node" || cannot_start "the node" "$dir/log/slurmd.log"
    echo "SLURM_CONF=$SLURM_CONF"
}

# Stop one daemon by its pid file, waiting up to 10 s for it to exit.
stop_pid() {
    local file=$1 pid
    [[ -f $file ]] || return 0
    pid=$(cat "$file")
    if kill "$pid" 2>/dev/null; then
        for _ in $(seq 1 20); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
}

stop() {
    export SLURM_CONF=$dir/slurm.conf
    if [[ -f $dir/slurmctld.pid ]]; then
        # SLURM_CONF points at this cluster only: its jobs are the test's.
        scancel --quiet --user="$(id -un)" 2>/dev/null || true
        sleep 1
    fi
    stop_pid "$dir/slurmd.pid"
    stop_pid "$dir/slurmctld.pid"
    stop_pid "$dir/munge/munged.pid"
}

case $cmd in
start) start ;;
stop) stop ;;
*) usage ;;
esac
