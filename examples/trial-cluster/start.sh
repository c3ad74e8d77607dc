#!/usr/bin/env bash
# A one-node Slurm or Grid Engine on this machine, to rehearse a campaign before a real cluster:
# Debian 12 (bookworm) or a derivative, run as root, with no systemd (a container, a chroot, WSL,
# or a workstation where you would rather not enable the services).
#
#     sudo bash examples/trial-cluster/start.sh slurm        # then: N=16 SHARDS=4 bash examples/slurm/count.sbatch
#     sudo bash examples/trial-cluster/start.sh gridengine   # then: N=16 SHARDS=4 bash examples/gridengine/count.sh
#     sudo bash examples/trial-cluster/start.sh stop         # stops both
#
# It installs the scheduler from Debian's packages where it is missing, writes its
# configuration for this one host (every CPU a slot, every job as the user who submits it) and
# starts its daemons in the background. Run it again to restart them. nqueens must be on the
# PATH (`cargo install --path . --locked`, or the static binary copied to /usr/local/bin).
set -euo pipefail

host=$(hostname)
cpus=$(nproc)

packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        apt-get update -qq || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" > /dev/null
    fi
}

# Waits up to 60 s for a command to succeed.
wait_for() {
    local i
    for i in $(seq 60); do
        "$@" > /dev/null 2>&1 && return 0
        sleep 1
    done
    echo "error: gave up waiting for: $*" >&2
    return 1
}

# Runs a command quietly, showing what it said only if it failed.
quiet() {
    local said
    said=$("$@" 2>&1) || { echo "$said" >&2; return 1; }
}

slurm() {
    packages slurm-wlm munge
    stop_slurm
    # munge authenticates Slurm's daemons and commands to each other; the package made its key.
    [[ -f /etc/munge/munge.key ]] || mungekey --create
    install -d -o munge -g munge -m 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged
    # The node as slurmd sees it (CPUs, sockets, cores, memory), minus its uptime.
    local node
    node=$(slurmd -C | head -n 1)
    install -d -m 0755 /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
    cat > /etc/slurm/slurm.conf <<CONF
# A one-node trial cluster (examples/trial-cluster/start.sh).
ClusterName=trial
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
# No cgroups without systemd: processes are tracked by their parents, and not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
# CPUs, not whole nodes, are what a job is given, so several shards run at once.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node State=UNKNOWN
PartitionName=trial Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    slurmctld
    slurmd
    wait_for sinfo
    # A node that was down before a restart comes back only when told.
    scontrol update nodename="$host" state=resume 2> /dev/null || true
    wait_for bash -c "sinfo -h -N -o %t | grep -qE '^(idle|mix|alloc)'"
    sinfo
}

# Stops a daemon by name and waits until it has gone (a zombie, never reaped where there is
# no init, does not count).
end() {
    local i
    pkill -x "$1" 2> /dev/null || return 0
    for i in $(seq 30); do
        pgrep -x -r D,R,S,T "$1" > /dev/null || return 0
        sleep 1
    done
    pkill -KILL -x "$1" 2> /dev/null || true
}

stop_slurm() {
    end slurmd
    end slurmctld
    end munged
}

gridengine() {
    packages gridengine-master gridengine-exec gridengine-client
    stop_gridengine
    export SGE_ROOT=/var/lib/gridengine SGE_CELL=default
    local common=$SGE_ROOT/$SGE_CELL/common conf
    conf=$(mktemp -d)
    # The master is this host. Grid Engine refuses a client whose address resolves to another
    # name than its own (Debian's /etc/hosts gives 127.0.0.1 to localhost first): the alias
    # makes them one host.
    echo "$host" > "$common/act_qmaster"
    echo "$host localhost" > "$common/host_aliases"
    install -d -o sgeadmin -g sgeadmin /var/spool/gridengine/execd
    sge_qmaster
    wait_for qconf -sh
    # This host submits and executes too; root's jobs are allowed (min_uid, min_gid 1000 by
    # default), as a trial run as root needs.
    qconf -ss 2> /dev/null | grep -qx "$host" || quiet qconf -as "$host"
    qconf -sconf global | sed -e 's/^min_uid .*/min_uid 0/' -e 's/^min_gid .*/min_gid 0/' > "$conf/global"
    quiet qconf -Mconf "$conf/global"
    if ! qconf -se "$host" > /dev/null 2>&1; then
        printf 'hostname %s\nload_scaling NONE\ncomplex_values NONE\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' \
            "$host" > "$conf/exec"
        quiet qconf -Ae "$conf/exec"
    fi
    if ! qconf -shgrp @allhosts > /dev/null 2>&1; then
        printf 'group_name @allhosts\nhostlist %s\n' "$host" > "$conf/hosts"
        quiet qconf -Ahgrp "$conf/hosts"
    fi
    # A parallel environment for a task of several slots on one host (-pe smp T), and one
    # queue of a slot per CPU.
    if ! qconf -sp smp > /dev/null 2>&1; then
        printf 'pe_name smp\nslots %s\nuser_lists NONE\nxuser_lists NONE\nstart_proc_args NONE\nstop_proc_args NONE\nallocation_rule $pe_slots\ncontrol_slaves FALSE\njob_is_first_task TRUE\nurgency_slots min\naccounting_summary FALSE\nqsort_args NONE\n' \
            "$cpus" > "$conf/pe"
        quiet qconf -Ap "$conf/pe"
    fi
    if ! qconf -sq all.q > /dev/null 2>&1; then
        qconf -sq | sed -e 's/^qname .*/qname all.q/' -e 's/^hostlist .*/hostlist @allhosts/' \
            -e "s/^slots .*/slots $cpus/" -e 's/^pe_list .*/pe_list smp/' > "$conf/queue"
        quiet qconf -Aq "$conf/queue"
    fi
    # Schedule every 2 s, not 15: a rehearsal's tasks are short.
    qconf -ssconf | sed -e 's/^schedule_interval .*/schedule_interval 0:0:2/' > "$conf/scheduler"
    quiet qconf -Msconf "$conf/scheduler"
    rm -r "$conf"
    sge_execd
    wait_for bash -c "qstat -f | grep -q '^all.q@' && ! qstat -f | grep -E '^all.q@' | grep -qE ' [au]+$'"
    qstat -f
}

stop_gridengine() {
    end sge_execd
    end sge_qmaster
}

case "${1:-}" in
    slurm) slurm ;;
    gridengine) gridengine ;;
    stop)
        stop_slurm
        stop_gridengine ;;
    *)
        echo "usage: start.sh slurm | gridengine | stop" >&2
        exit 2 ;;
esac
