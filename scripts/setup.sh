#!/bin/sh
# Installs what building and testing gfpf needs beyond Rust, only where it is missing:
#   sh scripts/setup.sh            m4 (rug builds GMP from source, and GMP's configure needs m4)
#   sh scripts/setup.sh --test     also a C++ compiler (the CUDA kernels' host emulation and the
#                                  CUDA codelets' host test compile C++ at run time), NVRTC
#                                  from PyPI into ~/.cache/gfpf/nvrtc (the kernels' NVRTC compile
#                                  tests; `cargo xtask test` finds it there) and nvdisasm into
#                                  ~/.cache/gfpf/nvdisasm (the instruction probes' test), where
#                                  pip is present
#   sh scripts/setup.sh --peers    also g++, FLINT and NTL (the NTL/FLINT comparison harness)
#   sh scripts/setup.sh --python   also a Python virtual environment in ~/.cache/gfpf/pyenv with
#                                  maturin and the Python package's test tools (pytest, hypothesis,
#                                  python-flint, dask[distributed], numpy, mypy): `cargo xtask pytest`
# Prints nothing when everything is there. Uses apt-get, dnf, apk or brew; sudo when not root.
set -eu
want_cxx=0
want_peers=0
want_python=0
for arg in "$@"; do
    case "$arg" in
        --test) want_cxx=1 ;;
        --peers) want_cxx=1; want_peers=1 ;;
        --python) want_python=1 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

have() { command -v "$1" >/dev/null 2>&1; }
header() { for dir in /usr/include /usr/local/include /opt/homebrew/include; do [ -e "$dir/$1" ] && return 0; done; return 1; }

if have apt-get; then manager=apt
elif have dnf; then manager=dnf
elif have apk; then manager=apk
elif have brew; then manager=brew
else manager=none
fi

# Package names per manager: m4, C++ compiler, FLINT headers, NTL headers.
case "$manager" in
    apt) pkgs="m4 g++ libflint-dev libntl-dev" ;;
    dnf) pkgs="m4 gcc-c++ flint-devel ntl-devel" ;;
    apk) pkgs="m4 g++ flint-dev ntl-dev" ;;
    *) pkgs="m4 gcc flint ntl" ;;
esac
set -- $pkgs
missing=""
have m4 || missing="$missing $1"
[ "$want_cxx" = 1 ] && ! have c++ && ! have g++ && missing="$missing $2"
[ "$want_peers" = 1 ] && ! header flint/fmpz_mod_poly.h && missing="$missing $3"
[ "$want_peers" = 1 ] && ! header NTL/ZZ_pX.h && missing="$missing $4"

# NVRTC, so that the kernels compile to machine code in the tests without a
# GPU or a CUDA toolkit: PyPI's wheel, unpacked into a cache directory (no
# Python environment is touched). Best effort: without pip its tests are
# reported as skipped.
nvrtc_dir="${XDG_CACHE_HOME:-$HOME/.cache}/gfpf/nvrtc"
if [ "$want_cxx" = 1 ] && [ ! -e "$nvrtc_dir/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" ] \
    && ! { ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so'; } && [ "$(uname -s)" = Linux ]; then
    if have python3 && python3 -m pip --version >/dev/null 2>&1; then
        echo "setup.sh: installing NVRTC (PyPI: nvidia-cuda-nvrtc-cu12) into $nvrtc_dir" >&2
        PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --target "$nvrtc_dir" nvidia-cuda-nvrtc-cu12 >&2 \
            || echo "setup.sh: NVRTC not installed; its tests will be reported as skipped" >&2
    else
        echo "setup.sh: no python3 -m pip: NVRTC not installed; its tests will be reported as skipped" >&2
    fi
fi

# nvdisasm, so that the instruction probes (cargo xtask kernels --probe) read
# the machine code back in the tests: PyPI's wheel into a cache directory,
# as NVRTC. Best effort: without it their test is reported as skipped.
nvdisasm_dir="${XDG_CACHE_HOME:-$HOME/.cache}/gfpf/nvdisasm"
if [ "$want_cxx" = 1 ] && ! have nvdisasm && [ ! -x /usr/local/cuda/bin/nvdisasm ] \
    && ! ls "$nvdisasm_dir"/nvidia/*/bin/nvdisasm >/dev/null 2>&1 && [ "$(uname -s)" = Linux ]; then
    if have python3 && python3 -m pip --version >/dev/null 2>&1; then
        echo "setup.sh: installing nvdisasm (PyPI: nvidia-cuda-nvdisasm) into $nvdisasm_dir" >&2
        PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --target "$nvdisasm_dir" nvidia-cuda-nvdisasm >&2 \
            || echo "setup.sh: nvdisasm not installed; the probes' test will be reported as skipped" >&2
    else
        echo "setup.sh: no python3 -m pip: nvdisasm not installed; the probes' test will be reported as skipped" >&2
    fi
fi

# The Python package's test environment: a virtual environment of its own
# (no system Python is touched). Debian's python3 needs python3-venv for it.
if [ "$want_python" = 1 ]; then
    if ! have python3; then
        echo "setup.sh: no python3: install Python 3.9 or later for the Python package" >&2; exit 1
    fi
    if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1 && [ "$manager" = apt ]; then
        missing="$missing python3-venv"
    fi
fi

python_env() {
    pyenv_dir="${XDG_CACHE_HOME:-$HOME/.cache}/gfpf/pyenv"
    [ -x "$pyenv_dir/bin/python" ] || python3 -m venv "$pyenv_dir"
    if ! "$pyenv_dir/bin/python" -c 'import maturin, pytest, hypothesis, flint, distributed, numpy, mypy' >/dev/null 2>&1; then
        echo "setup.sh: installing maturin and the Python test tools into $pyenv_dir" >&2
        "$pyenv_dir/bin/python" -m pip install -q --disable-pip-version-check \
            maturin numpy pytest hypothesis python-flint "dask[distributed]" mypy >&2
    fi
}

if [ -z "$missing" ]; then
    [ "$want_python" = 1 ] && python_env
    exit 0
fi

echo "setup.sh: installing$missing" >&2
if [ "$(id -u)" = 0 ] || [ "$manager" = brew ]; then sudo=""; elif have sudo; then sudo="sudo"; else
    echo "setup.sh: not root and no sudo: install$missing yourself" >&2; exit 1
fi
case "$manager" in
    apt) $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null ;;
    dnf) $sudo dnf install -y -q $missing ;;
    apk) $sudo apk add -q $missing ;;
    brew) brew install $missing ;;
    none) echo "setup.sh: no known package manager: install$missing yourself" >&2; exit 1 ;;
esac
[ "$want_python" = 1 ] && python_env
exit 0
