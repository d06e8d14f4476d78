# bench/split-lib.sh - sourced by split-proof.sh and split-deeper.sh.

# The question a child answers where the root's side asks QUESTION: its
# disproof is, after every move, the other side's answer to the other one.
split_child_question() {
    case $1 in
        win) echo advantage ;;
        advantage) echo win ;;
        *) echo "$0: QUESTION must be win or advantage, not '$1'" >&2; return 2 ;;
    esac
}

# The --tb-dir option among prove options, for verify-proof (set into tb).
split_tb_option() {
    tb=()
    for ((i = 1; i <= $#; i++)); do [ "${!i}" = --tb-dir ] && { j=$((i + 1)); tb=(--tb-dir "${!j}"); }; done
    return 0
}
