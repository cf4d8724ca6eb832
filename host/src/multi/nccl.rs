//! The few NCCL calls the halo exchange needs, loaded at run time.
//!
//! fibril loads NCCL itself (with `libloading`) rather than through
//! cudarc's bindings because the most common NCCL on a workstation is the
//! one a Python wheel installed, which ships only `libnccl.so.2`; cudarc
//! looks for other names. Loading at run time also keeps NCCL optional:
//! fibril builds and runs everywhere, and only `--exchange nccl` and
//! multi-process runs need the library.
//!
//! The signatures and enum values are NCCL's public C API (nccl.h,
//! "ncclSend", "ncclRecv", "ncclAllGather", "ncclAllReduce",
//! "ncclCommInitAll", "ncclCommInitRank", "ncclGroupStart/End").

use std::ffi::{CStr, c_char, c_int, c_void};
use std::path::PathBuf;
use std::sync::OnceLock;

use cudarc::driver::sys::{CUdeviceptr, CUstream};
use thiserror::Error;

/// Environment variable naming the NCCL library file to load.
pub const LIBRARY_ENV: &str = "FIBRIL_NCCL_LIBRARY";

/// `ncclUniqueId`: 128 opaque bytes that rank 0 creates and every rank
/// passes to `ncclCommInitRank`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct UniqueId {
    pub internal: [c_char; 128],
}

impl UniqueId {
    pub fn to_bytes(self) -> [u8; 128] {
        self.internal.map(|c| c as u8)
    }

    pub fn from_bytes(bytes: [u8; 128]) -> Self {
        Self { internal: bytes.map(|b| b as c_char) }
    }
}

type RawComm = *mut c_void;
/// `ncclResult_t`; 0 is ncclSuccess.
type NcclResult = c_int;

/// `ncclDataType_t` values (nccl.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum DataType {
    Uint8 = 1,
    Uint32 = 3,
}

/// `ncclRedOp_t` values (nccl.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum ReduceOp {
    Max = 2,
}

#[derive(Clone, Debug, Error)]
pub enum NcclError {
    #[error(
        "the NCCL library could not be loaded (tried {tried}): {why}; install NCCL (for example the \
         nvidia-nccl-cu12 or -cu13 Python wheel) and put the folder holding libnccl.so.2 on LD_LIBRARY_PATH, \
         or set {LIBRARY_ENV}=/path/to/libnccl.so.2; or use --exchange peer or host in one process"
    )]
    NotFound { tried: String, why: String },
    #[error("the NCCL library lacks the function {name}; use NCCL 2.7 or newer")]
    MissingSymbol { name: &'static str },
    #[error("NCCL call {call} failed: {message} (code {code})")]
    Call { call: &'static str, code: i32, message: String },
}

/// Function pointers resolved once from the loaded library.
struct Api {
    _lib: libloading::Library,
    get_error_string: unsafe extern "C" fn(NcclResult) -> *const c_char,
    get_version: unsafe extern "C" fn(*mut c_int) -> NcclResult,
    get_unique_id: unsafe extern "C" fn(*mut UniqueId) -> NcclResult,
    comm_init_rank: unsafe extern "C" fn(*mut RawComm, c_int, UniqueId, c_int) -> NcclResult,
    comm_init_all: unsafe extern "C" fn(*mut RawComm, c_int, *const c_int) -> NcclResult,
    comm_abort: unsafe extern "C" fn(RawComm) -> NcclResult,
    send: unsafe extern "C" fn(*const c_void, usize, c_int, c_int, RawComm, CUstream) -> NcclResult,
    recv: unsafe extern "C" fn(*mut c_void, usize, c_int, c_int, RawComm, CUstream) -> NcclResult,
    all_gather:
        unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, RawComm, CUstream) -> NcclResult,
    all_reduce: unsafe extern "C" fn(
        *const c_void,
        *mut c_void,
        usize,
        c_int,
        c_int,
        RawComm,
        CUstream,
    ) -> NcclResult,
    group_start: unsafe extern "C" fn() -> NcclResult,
    group_end: unsafe extern "C" fn() -> NcclResult,
}

/// Library names tried in order: the explicit path, then the runtime
/// name every NCCL install has, then the development link.
fn candidates() -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::env::var_os(LIBRARY_ENV).map(PathBuf::from).into_iter().collect();
    names.extend(["libnccl.so.2", "libnccl.so"].map(PathBuf::from));
    names
}

fn load() -> Result<Api, NcclError> {
    let tried = candidates();
    let mut last = String::new();
    for path in &tried {
        // SAFETY: loading NCCL runs its initialisers, which have no
        // preconditions beyond a working dynamic loader.
        match unsafe { libloading::Library::new(path) } {
            Ok(lib) => return resolve(lib),
            Err(e) => last = e.to_string(),
        }
    }
    let tried = tried.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    Err(NcclError::NotFound { tried, why: last })
}

fn resolve(lib: libloading::Library) -> Result<Api, NcclError> {
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the type is the C signature of the named function in nccl.h.
            *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                .map_err(|_| NcclError::MissingSymbol { name: $name })?
        };
    }
    Ok(Api {
        get_error_string: sym!("ncclGetErrorString"),
        get_version: sym!("ncclGetVersion"),
        get_unique_id: sym!("ncclGetUniqueId"),
        comm_init_rank: sym!("ncclCommInitRank"),
        comm_init_all: sym!("ncclCommInitAll"),
        comm_abort: sym!("ncclCommAbort"),
        send: sym!("ncclSend"),
        recv: sym!("ncclRecv"),
        all_gather: sym!("ncclAllGather"),
        all_reduce: sym!("ncclAllReduce"),
        group_start: sym!("ncclGroupStart"),
        group_end: sym!("ncclGroupEnd"),
        _lib: lib,
    })
}

fn api() -> Result<&'static Api, NcclError> {
    static API: OnceLock<Result<Api, NcclError>> = OnceLock::new();
    // A failed load is final for the process: the same error each time.
    API.get_or_init(load).as_ref().map_err(NcclError::clone)
}

fn check(api: &Api, call: &'static str, code: NcclResult) -> Result<(), NcclError> {
    if code == 0 {
        return Ok(());
    }
    // SAFETY: ncclGetErrorString returns a static NUL-terminated string.
    let message = unsafe { CStr::from_ptr((api.get_error_string)(code)) }.to_string_lossy().into_owned();
    Err(NcclError::Call { call, code, message })
}

/// Whether NCCL can be loaded, and its version ("2.27.3").
pub fn version() -> Result<String, NcclError> {
    let api = api()?;
    let mut v = 0;
    // SAFETY: writes one int.
    check(api, "ncclGetVersion", unsafe { (api.get_version)(&mut v) })?;
    Ok(version_text(v))
}

/// NCCL_VERSION_CODE as text: major * 10000 + minor * 100 + patch since
/// 2.9, major * 1000 + minor * 100 + patch before.
fn version_text(code: i32) -> String {
    let (major, rest) = if code >= 20900 { (code / 10000, code % 10000) } else { (code / 1000, code % 1000) };
    format!("{major}.{}.{}", rest / 100, rest % 100)
}

/// A fresh id for a new communicator (rank 0 makes it, the others receive it).
pub fn unique_id() -> Result<UniqueId, NcclError> {
    let api = api()?;
    let mut id = UniqueId { internal: [0; 128] };
    // SAFETY: writes the 128-byte struct.
    check(api, "ncclGetUniqueId", unsafe { (api.get_unique_id)(&mut id) })?;
    Ok(id)
}

/// The two halves of a point-to-point transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P2p {
    Send,
    Recv,
}

/// One rank's NCCL communicator; aborted on drop.
pub struct Comm {
    raw: RawComm,
    rank: usize,
    size: usize,
}

// SAFETY: an NCCL communicator may be used from any thread as long as
// calls on it are not concurrent, which `&mut`/ownership in the solver
// guarantees (the solver drives it from one thread at a time).
unsafe impl Send for Comm {}

impl Comm {
    /// Communicators for all `ordinals` of this process (ncclCommInitAll),
    /// rank i on `ordinals[i]`.
    pub fn init_all(ordinals: &[usize]) -> Result<Vec<Comm>, NcclError> {
        let api = api()?;
        let devs: Vec<c_int> = ordinals.iter().map(|&o| o as c_int).collect();
        let mut raw = vec![std::ptr::null_mut(); devs.len()];
        // SAFETY: `raw` has room for one communicator per device.
        check(api, "ncclCommInitAll", unsafe {
            (api.comm_init_all)(raw.as_mut_ptr(), devs.len() as c_int, devs.as_ptr())
        })?;
        let size = raw.len();
        Ok(raw.into_iter().enumerate().map(|(rank, raw)| Comm { raw, rank, size }).collect())
    }

    /// This process's communicator as `rank` of `size`; blocks until every
    /// rank has called it with the same id. The CUDA context of the
    /// rank's GPU must be current.
    pub fn init_rank(id: UniqueId, rank: usize, size: usize) -> Result<Comm, NcclError> {
        let api = api()?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: writes one communicator handle.
        check(api, "ncclCommInitRank", unsafe {
            (api.comm_init_rank)(&mut raw, size as c_int, id, rank as c_int)
        })?;
        Ok(Comm { raw, rank, size })
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Queues a send of `count` elements at `buf` to `peer` on `stream`,
    /// or a receive into `buf` from `peer`.
    ///
    /// # Safety
    /// `buf` must hold `count` elements of `ty` on this communicator's GPU
    /// until the stream has run the transfer, and nothing else may write
    /// it meanwhile (nor read it, for a receive).
    pub unsafe fn p2p(
        &self,
        op: P2p,
        buf: CUdeviceptr,
        count: usize,
        ty: DataType,
        peer: usize,
        stream: CUstream,
    ) -> Result<(), NcclError> {
        let api = api()?;
        let (ty, peer) = (ty as c_int, peer as c_int);
        // SAFETY: as the caller promised.
        let (call, code) = unsafe {
            match op {
                P2p::Send => {
                    ("ncclSend", (api.send)(buf as *const c_void, count, ty, peer, self.raw, stream))
                }
                P2p::Recv => ("ncclRecv", (api.recv)(buf as *mut c_void, count, ty, peer, self.raw, stream)),
            }
        };
        check(api, call, code)
    }

    /// Queues an all-gather: every rank's `count` elements at `send` end
    /// up at `recv + rank * count`.
    ///
    /// # Safety
    /// `send` holds `count` and `recv` `size * count` elements of `ty`.
    pub unsafe fn all_gather(
        &self,
        send: CUdeviceptr,
        recv: CUdeviceptr,
        count: usize,
        ty: DataType,
        stream: CUstream,
    ) -> Result<(), NcclError> {
        let api = api()?;
        let code = unsafe {
            (api.all_gather)(send as *const c_void, recv as *mut c_void, count, ty as c_int, self.raw, stream)
        };
        check(api, "ncclAllGather", code)
    }

    /// Queues an in-place all-reduce of `count` elements at `buf`.
    ///
    /// # Safety
    /// `buf` holds `count` elements of `ty`.
    pub unsafe fn all_reduce_in_place(
        &self,
        buf: CUdeviceptr,
        count: usize,
        ty: DataType,
        op: ReduceOp,
        stream: CUstream,
    ) -> Result<(), NcclError> {
        let api = api()?;
        let code = unsafe {
            (api.all_reduce)(
                buf as *const c_void,
                buf as *mut c_void,
                count,
                ty as c_int,
                op as c_int,
                self.raw,
                stream,
            )
        };
        check(api, "ncclAllReduce", code)
    }
}

impl Drop for Comm {
    /// Aborts rather than destroys: ncclCommDestroy waits for outstanding
    /// operations, which never finish when a peer has died or a group was
    /// left half-posted by an error; the solver has already waited for its
    /// streams when it ends normally.
    fn drop(&mut self) {
        if let Ok(api) = api() {
            // SAFETY: the handle came from a successful init and is dropped once.
            let _ = unsafe { (api.comm_abort)(self.raw) };
        }
    }
}

/// Runs `body` between ncclGroupStart and ncclGroupEnd, so that the sends
/// and receives of several GPUs driven by one thread (or of one rank's two
/// neighbours) are matched as one operation instead of deadlocking.
pub fn group<R, E: From<NcclError>>(body: impl FnOnce() -> Result<R, E>) -> Result<R, E> {
    let api = api()?;
    // SAFETY: no arguments.
    check(api, "ncclGroupStart", unsafe { (api.group_start)() })?;
    let result = body();
    // The group must be closed also when the body failed.
    // SAFETY: no arguments.
    let end = check(api, "ncclGroupEnd", unsafe { (api.group_end)() });
    let r = result?;
    end.map(|()| r).map_err(E::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_id_bytes_round_trip() {
        let mut bytes = [0u8; 128];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i * 7 + 200) as u8;
        }
        assert_eq!(UniqueId::from_bytes(bytes).to_bytes(), bytes);
    }

    #[test]
    fn version_codes_of_old_and_new_nccl() {
        assert_eq!(version_text(22803), "2.28.3");
        assert_eq!(version_text(20903), "2.9.3");
        assert_eq!(version_text(2708), "2.7.8");
    }

    #[test]
    fn a_missing_library_is_named_with_the_fix() {
        let e = NcclError::NotFound { tried: "libnccl.so.2, libnccl.so".into(), why: "not found".into() };
        let text = e.to_string();
        assert!(
            text.contains("libnccl.so.2") && text.contains(LIBRARY_ENV) && text.contains("--exchange peer")
        );
    }
}
