# SPDX-License-Identifier: GPL-2.0
"""symgroups.py: kernel functions grouped by what they do, by name, for
vm-profile's tables (profile-table.py stores each group's total; matrix-explain.py
compares them). A name matches the first group whose pattern it starts with;
the rest is "rest of the kernel"."""
import re

GROUPS = (
    ("scheduler and context switch", re.compile(
        r"^(__?schedule|schedule|preempt_schedule|__switch_to|switch_mm|finish_task_switch|prepare_task_switch|"
        r"pick_|put_prev|set_next|__?enqueue|__?dequeue|enqueue|dequeue|update_curr|__?update_load|update_cfs|"
        r"update_min_vruntime|update_entity_lag|vruntime|avg_vruntime|place_entity|reweight|check_preempt|"
        r"wakeup_preempt|resched|try_to_wake_up|ttwu|select_task_rq|update_rq_clock|sched_|native_sched_clock|"
        r"psi_|cpuacct|__cgroup_account|account_|activate_task|deactivate_task|raw_spin_rq|_raw_spin_rq|"
        r"wake_up_q|wake_q|__wake_up|autoremove_wake|default_wake_function|wait_for_completion|"
        r"__?wait_for_common|do_wait_for_common|complete|prepare_to_wait|finish_wait|rt_mutex|rtlock|"
        r"migrate_|hrtick|__perf_event_task_sched|perf_event_task_sched|set_next_buddy|yield_task|"
        r"entity_eligible|pick_eevdf|task_tick|dl_server|update_curr_dl)")),
    ("syscall entry, exit and mitigations", re.compile(
        r"^(entry_|do_syscall|syscall_|x64_sys_call|__x86_|__x64_sys_|srso_|retbleed|clear_bhb|mds_|"
        r"restore_regs|error_entry|native_irq_return|\[cpu entry area|exit_to_user|arch_exit|irqentry|"
        r"switch_fpu|restore_fpregs|fpu__|xfd_|fpregs_|__pfx_|stackleak|fred_|asm_|ret_from_)")),
    ("seccomp and its filter", re.compile(
        r"^(__seccomp|seccomp|__secure_computing|\[module area|bpf_|__bpf|___bpf|populate_seccomp)")),
    ("user space", re.compile(r"^\[user\]$")),
)
OTHER = "rest of the kernel"
# profile-table.py keeps a profile's largest functions by name and sums the rest under this one
OTHER_FUNCTIONS = "[other functions]"
NAMES = [g for g, _ in GROUPS] + [OTHER]


def group_of(sym):
    for name, rx in GROUPS:
        if rx.match(sym):
            return name
    return OTHER


def by_group(prof):
    """{group: total} of {function: instructions}"""
    out = dict.fromkeys(NAMES, 0.0)
    for sym, v in prof.items():
        out[group_of(sym)] += v
    return out
