# Sourced by the device scripts: puts NCCL on the library path. fibril
# loads libnccl.so.2 at run time; on machines where NCCL came with a
# Python wheel it lives in site-packages/nvidia/nccl/lib.
export NCCL_NVLS_ENABLE=0
if ! ldconfig -p 2>/dev/null | grep -q 'libnccl.so.2'; then
  nccl_dir=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null || true)
  [ -n "$nccl_dir" ] && export LD_LIBRARY_PATH="$nccl_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
