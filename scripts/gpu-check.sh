#!/usr/bin/env bash
# The GPU confirmation of the time model, on a machine with an NVIDIA GPU, CUDA and Nsight Compute
# but no Rust toolchain. Stage on the development machine first (DESIGN.md, "Testing on a GPU
# machine without a Rust toolchain"):
#   GFPF_CUDA_TESTS=1 ../shared/tools/stage-gpu.sh
# then, on the GPU machine, from the project root with .gpu/ beside it:
#   scripts/gpu-check.sh [PART ...]      default: profile bench tests, in that order
# Parts:
#   profile  Nsight Compute on one t8 forward transform of 2^20 (its three launches): stall reasons
#            (WarpStateStats), issue slots (SchedulerStats), pipes, memory, occupancy. They settle
#            which of the model's readings of the path term holds: the fitted cost or the floor.
#   bench    `gfpf bench --device cuda` with the model's figures of this GPU beside each row
#            (measured / modelled), and the device's copy bandwidth.
#   tests    every staged test binary (.gpu/run.sh): the device suite, bit for bit with gfpf-cpu.
# Writes a log per part, the ncu report and its CSV under $OUT (or .gpu/out). Each part has its own
# limit, GFPF_CHECK_LIMIT_S seconds (default 280), so that one slow part leaves the others their time.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-.gpu/out}
limit=${GFPF_CHECK_LIMIT_S:-280}
mkdir -p "$out"
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(profile bench tests)
for part in "${parts[@]}"; do
    case "$part" in
        profile|bench|tests) ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "gpu-check.sh: unknown part '$part' (profile, bench, tests)" >&2; exit 2 ;;
    esac
done
if [ ! -x .gpu/bin/gfpf ] || [ ! -x .gpu/run.sh ]; then
    echo "gpu-check.sh: no staged .gpu/bin/gfpf or .gpu/run.sh here: run ../shared/tools/stage-gpu.sh first" >&2
    exit 2
fi
if ! gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) || [ -z "$gpu" ]; then
    echo "gpu-check.sh: nvidia-smi finds no GPU here" >&2
    exit 2
fi
echo "GPU: $gpu; parts: ${parts[*]}; limit ${limit} s a part; output in $out"
# NVRTC for the kernels compiled at run time, where CUDA's libraries are not on the path.
for lib in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/lib64; do
    [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
# The model's figures of this GPU (`cargo xtask gpu-model --contest [--gpu h200]`).
case "$gpu" in
    *H200*) model=docs/benchmarks/gpu_contest_h200.json ;;
    *) model=docs/benchmarks/gpu_contest.json ;;
esac

status=0
run_part() {
    local name=$1; shift
    local start=$(date +%s)
    echo "== $name: $*"
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    local rc=$?
    [ $rc -eq 124 ] && echo "$name: stopped after $limit s (GFPF_CHECK_LIMIT_S)" >> "$out/$name.log"
    echo "== $name: exit $rc after $(( $(date +%s) - start )) s"
    tail -n 40 "$out/$name.log"
    [ $rc -eq 0 ] || status=1
}

profile() {
    command -v ncu >/dev/null || { echo "ncu (Nsight Compute) is not on the path"; return 1; }
    # 2^20 zero values of t8 (eight 64-bit words each): the kernels take the same path whatever
    # the values.
    local zeros
    zeros=$(mktemp) || return 1
    head -c $((64 << 20)) /dev/zero > "$zeros"
    # A first transform compiles the modules (NVRTC, else nvcc) into the kernel cache, outside
    # the profile.
    .gpu/bin/gfpf fft --prime t8 --device cuda --format binary "$zeros" > /dev/null || return 1
    ncu --clock-control none --kernel-name regex:gfpf_dft16 --launch-count 3 \
        --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        --section InstructionStats --section Occupancy --section LaunchStats \
        -f -o "$out/t8_2e20" \
        .gpu/bin/gfpf fft --prime t8 --device cuda --format binary "$zeros" > /dev/null || return 1
    rm -f "$zeros"
    ncu --import "$out/t8_2e20.ncu-rep" --csv --page details > "$out/t8_2e20.csv" || return 1
    ncu --import "$out/t8_2e20.ncu-rep" --page details
}

for part in "${parts[@]}"; do
    case "$part" in
        profile) export -f profile; export out; run_part profile bash -c profile ;;
        bench) run_part bench .gpu/bin/gfpf bench --device cuda --model "$model" ;;
        tests) run_part tests .gpu/run.sh ;;
    esac
done
exit $status
