#!/usr/bin/env bash
# Builds `tally-lab` (the GPU checks are its benchmarks and training; issue 88 moved them out of
# `tally`) with candle's CUDA backend on a machine without a GPU, and packs what a GPU
# machine needs to run it: `target/cuda-pack/` (a stripped, xz-compressed binary, MiniLM in half
# precision, the CoQEx snippet sets and `run.sh`). The default build and CI stay CPU-only.
#
#   scripts/build-cuda.sh            # build and pack
#   target/cuda-pack/run.sh bench count --runs 20    # on the GPU machine, from the repo root
#
# The CUDA toolkit comes from PyPI wheels (nvcc, the runtime headers, cuBLAS, cuRAND, NVRTC) into
# a virtual environment under $TALLY_CUDA_CACHE (default ~/.cache/tally-cuda), installed once.
# candle links cudarc with `dynamic-linking`, so the linker wants libcuda, which only a machine
# with the NVIDIA driver has: the script links against a stub with the same soname
# (libcuda.so.1) that defines every driver function cudarc binds, and the GPU machine's real
# driver is loaded in its place at run time. Environment: CUDA_COMPUTE_CAP (default 90: H100
# and H200), TALLY_DATA (default ../shared/data), TALLY_MODELS (default models).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cache=${TALLY_CUDA_CACHE:-$HOME/.cache/tally-cuda}
data=${TALLY_DATA:-$root/../shared/data}
models=${TALLY_MODELS:-$root/models}
encoder=all-MiniLM-L6-v2
pack=$root/target/cuda-pack
target=$root/target/cuda
# The toolkit must not be newer than the GPU machine's driver: candle loads its kernels as PTX,
# and a driver refuses PTX from a newer toolkit (CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the lent
# H200 has CUDA 13.0, and 13.5's PTX failed there). TALLY_CUDA_TOOLKIT picks 13.0 (default) or
# 13.5.
toolkit=${TALLY_CUDA_TOOLKIT:-13.0}
case "$toolkit" in
    13.0) export CUDARC_CUDA_VERSION=13000
          wheels=("nvidia-cuda-nvcc==13.0.88" "nvidia-cuda-crt==13.0.88" "nvidia-nvvm==13.0.88"
                  "nvidia-cuda-runtime==13.0.96" "nvidia-cuda-cccl==13.0.85" "nvidia-cuda-nvrtc==13.0.88") ;;
    # cudarc 0.19 knows CUDA up to 13.4; the 13.5 wheels build code for that interface.
    13.5) export CUDARC_CUDA_VERSION=13040
          wheels=("nvidia-cuda-nvcc==13.5.37" "nvidia-cuda-crt==13.5.37" "nvidia-nvvm==13.5.37"
                  "nvidia-cuda-runtime==13.5.37" "nvidia-cuda-cccl==13.3.5.0.6" "nvidia-cuda-nvrtc==13.5.37") ;;
    *) echo "TALLY_CUDA_TOOLKIT must be 13.0 or 13.5, not $toolkit" >&2; exit 2 ;;
esac
export CUDA_COMPUTE_CAP=${CUDA_COMPUTE_CAP:-90}

say() { echo "[build-cuda] $*"; }

# 1. The toolkit, once per machine and version.
venv=$cache/venv-$toolkit
wheels+=("nvidia-cublas==13.10.0.20" "nvidia-curand==10.4.5.25" "safetensors==0.4.5" "numpy<3")
if ! "$venv/bin/python" -c "import safetensors, numpy" 2>/dev/null \
    || ! ls "$venv"/lib/python3*/site-packages/nvidia/cu13/bin/nvcc >/dev/null 2>&1; then
    say "installing the CUDA toolkit wheels into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "${wheels[@]}"
fi
cuda=$(echo "$venv"/lib/python3*/site-packages/nvidia/cu13)
[ -x "$cuda/bin/nvcc" ] || { echo "no nvcc in $cuda" >&2; exit 1; }

# 2. What the linker looks for: unversioned library names, and the driver stub.
ln -sfn libcublas.so.13 "$cuda/lib/libcublas.so"
ln -sfn libcublasLt.so.13 "$cuda/lib/libcublasLt.so"
ln -sfn libnvrtc.so.13 "$cuda/lib/libnvrtc.so"
ln -sfn libcurand.so.10 "$cuda/lib/libcurand.so"
ln -sfn libcudart.so.13 "$cuda/lib/libcudart.so"
cudarc_version=$(awk '/^name = "cudarc"/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
cargo fetch --quiet
cudarc=$(find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -maxdepth 2 -type d \
    -name "cudarc-$cudarc_version" | head -1)
[ -n "$cudarc" ] || { echo "cudarc $cudarc_version not found in the cargo registry" >&2; exit 1; }
mkdir -p "$cuda/lib/stubs"
grep -oE '^pub unsafe fn cu[A-Za-z0-9_]+' "$cudarc/src/driver/sys/mod.rs" \
    | awk '{ print "void " $4 "(void) {}" }' | sort -u > "$cuda/lib/stubs/libcuda-stub.c"
cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$cuda/lib/stubs/libcuda.so" \
    "$cuda/lib/stubs/libcuda-stub.c"
say "driver stub: $(wc -l < "$cuda/lib/stubs/libcuda-stub.c") functions of cudarc $cudarc_version"

# 3. The build, in its own target directory (the CPU build's stays as it is).
export PATH=$cuda/bin:$PATH CUDA_ROOT=$cuda CUDA_PATH=$cuda
say "building (CUDA_COMPUTE_CAP=$CUDA_COMPUTE_CAP) into $target"
started=$(date +%s)
CARGO_TARGET_DIR=$target cargo build --release --features cuda -p tally-lab-cli --bin tally-lab
say "built in $(( $(date +%s) - started )) s"

# 4. The pack: under the 64 MiB a device call may carry with the working tree.
rm -rf "$pack"
mkdir -p "$pack/models/$encoder" "$pack/data/coqex"
strip -o "$pack/tally-lab" "$target/release/tally-lab"
xz -T0 -6 "$pack/tally-lab"
for f in config.json tokenizer.json tokenizer_config.json special_tokens_map.json vocab.txt \
    modules.json sentence_bert_config.json; do
    [ -f "$models/$encoder/$f" ] && cp "$models/$encoder/$f" "$pack/models/$encoder/"
done
[ -d "$models/$encoder/1_Pooling" ] && cp -r "$models/$encoder/1_Pooling" "$pack/models/$encoder/"
"$venv/bin/python" - "$models/$encoder/model.safetensors" "$pack/models/$encoder/model.safetensors" <<'PY'
import sys
from safetensors.numpy import load_file, save_file
tensors = load_file(sys.argv[1])
save_file({k: (v.astype("float16") if v.dtype.kind == "f" else v) for k, v in tensors.items()}, sys.argv[2])
PY
for set in stresstest_v1 count_lcquad_v2 natural_questions_dev; do
    cp -r "$data/coqex/$set" "$pack/data/coqex/"
done
cat > "$pack/run.sh" <<'SH'
#!/usr/bin/env bash
# Runs the packed CUDA build of `tally-lab` on a GPU machine: `run.sh ARGS…` from the repo root.
# cuBLAS, cuRAND and NVRTC come from the machine's own Python packages (PyTorch's nvidia-*
# wheels); the driver (libcuda.so.1) is the machine's.
set -euo pipefail
pack=$(cd "$(dirname "$0")" && pwd)
bin=/tmp/tally-lab-cuda
if [ ! -x "$bin" ]; then
    xz -dc "$pack/tally-lab.xz" > "$bin"
    chmod +x "$bin"
fi
lib=$(dirname "$(find / -xdev -name 'libcublasLt.so.13' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export TALLY_MODELS=$pack/models TALLY_DATA=$pack/data TALLY_SPAN_MODEL=engine/data/count-spans
exec "$bin" "$@"
SH
chmod +x "$pack/run.sh"
say "packed $(du -sh "$pack" | cut -f1) into $pack:"
ls -la "$pack"
