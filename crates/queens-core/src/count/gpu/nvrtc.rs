//! NVRTC, the CUDA runtime compiler, loaded at run time: compiles the kernel's source to the
//! machine code of the device's architecture (a cubin, not PTX: see [`Nvrtc::compile_cubin`]),
//! and keeps it in a cache so that the next run starts at once.
//!
//! The library is looked for under the names of CUDA 13, 12 and 11.2 and in the usual toolkit
//! folders, or taken from `QUEENS_NVRTC` (a path to the library file, for example the one of
//! NVIDIA's `nvidia-cuda-nvrtc-cu12` wheel on PyPI), so that one binary works with whichever
//! toolkit a machine has. Only a few functions of its C interface are used; they are declared
//! here. Source: NVIDIA, "NVRTC, the CUDA runtime compilation library", user guide. Cost: a
//! compile takes a second or two; a cached cubin is read in microseconds.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

use super::GpuError;

type Program = *mut c_void;
type Status = c_int;

/// The names the library goes by, newest first.
#[cfg(not(windows))]
const NAMES: &[&str] = &[
    "libnvrtc.so",
    "libnvrtc.so.13",
    "libnvrtc.so.12",
    "libnvrtc.so.11.2",
];
#[cfg(windows)]
const NAMES: &[&str] = &[
    "nvrtc64_130_0.dll",
    "nvrtc64_120_0.dll",
    "nvrtc64_112_0.dll",
];

/// The folders of a CUDA toolkit the library may sit in, below `CUDA_HOME`, `CUDA_PATH` or
/// `/usr/local/cuda`.
const FOLDERS: &[&str] = &[
    "lib64",
    "lib",
    "targets/x86_64-linux/lib",
    "targets/sbsa-linux/lib",
    "bin",
];

/// A loaded NVRTC.
pub struct Nvrtc {
    lib: libloading::Library,
    /// Its builtins library, loaded from its folder first (see [`builtins_beside`]); kept loaded
    /// as long as NVRTC is.
    _builtins: Vec<libloading::Library>,
    /// Where it was found.
    pub path: String,
}

/// NVRTC opens its builtins library (`libnvrtc-builtins.so.13.0`) by name when it compiles, and
/// finds it beside itself only through its RUNPATH, which the CUDA 13 wheel's library lacks:
/// loaded by path from a folder not on the loader's path, every compile failed with "failed to
/// open libnvrtc-builtins.so.13.0". So the builtins of the folder a library is loaded from are
/// loaded first, by path: NVRTC's own open then finds them already loaded under that name. On
/// other systems, and for a bare name (the loader's own search), nothing is loaded.
fn builtins_beside(path: &Path) -> Vec<libloading::Library> {
    if !cfg!(unix) {
        return Vec::new();
    }
    let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut names: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libnvrtc-builtins") && n.contains(".so"))
        })
        .collect();
    names.sort();
    names
        .iter()
        // SAFETY: as for NVRTC itself: loading runs its initialisers, which have no
        // preconditions. One that cannot be loaded is skipped: NVRTC then says what it misses.
        .filter_map(|p| unsafe { libloading::Library::new(p) }.ok())
        .collect()
}

impl std::fmt::Debug for Nvrtc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nvrtc").field("path", &self.path).finish()
    }
}

/// The places tried, in order: the bare names (the loader's own search), and the toolkit
/// folders.
fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    out.extend(NAMES.iter().map(PathBuf::from));
    let roots = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var_os(v).map(PathBuf::from))
        // Only absolute folders: an empty or relative one would load a library from the
        // current folder.
        .filter(|root| root.is_absolute())
        .chain(std::iter::once(PathBuf::from("/usr/local/cuda")));
    for root in roots {
        for folder in FOLDERS {
            for name in NAMES {
                out.push(root.join(folder).join(name));
            }
        }
    }
    out
}

impl Nvrtc {
    /// Loads the library: the one `QUEENS_NVRTC` names when it is set (and not empty), else
    /// from the first place of `candidates` that has it.
    pub fn load() -> Result<Nvrtc, GpuError> {
        let named = std::env::var_os("QUEENS_NVRTC").filter(|p| !p.is_empty());
        Nvrtc::load_from(named.map(PathBuf::from))
    }

    /// [`Nvrtc::load`] with `named` for `QUEENS_NVRTC`: a library named is the one loaded, or
    /// the error says why it could not be (never another, found elsewhere, in its place).
    fn load_from(named: Option<PathBuf>) -> Result<Nvrtc, GpuError> {
        if let Some(path) = named {
            let why = |why: String| GpuError::NoNvrtc {
                looked_for: format!("QUEENS_NVRTC={}: {why}", crate::text::escape_path(&path)),
            };
            // libloading's error says "dlopen failed"; the loader's own words are its source.
            let nvrtc = Nvrtc::open(&path).map_err(|e| {
                why(match std::error::Error::source(&e) {
                    Some(cause) => format!("{e}: {cause}"),
                    None => e.to_string(),
                })
            })?;
            return match nvrtc.version() {
                Ok(_) => Ok(nvrtc),
                Err(_) => Err(why(
                    "a library without nvrtcVersion, so not NVRTC".to_string()
                )),
            };
        }
        let tried = candidates();
        for path in &tried {
            // A path with a folder that does not exist cannot load; skip the loader's search.
            if path.components().count() > 1 && !path.exists() {
                continue;
            }
            // A library of that name without NVRTC's functions is not NVRTC.
            if let Some(nvrtc) = Nvrtc::open(path).ok().filter(|n| n.version().is_ok()) {
                return Ok(nvrtc);
            }
        }
        Err(GpuError::NoNvrtc {
            looked_for: format!(
                "{} on the loader's path, then in the {} folders of CUDA_HOME, CUDA_PATH and \
                 /usr/local/cuda; QUEENS_NVRTC is unset",
                NAMES.join(", "),
                FOLDERS.join(", ")
            ),
        })
    }

    /// The library at `path`, its folder's builtins loaded first ([`builtins_beside`]).
    fn open(path: &Path) -> Result<Nvrtc, libloading::Error> {
        let builtins = builtins_beside(path);
        // SAFETY: loading NVRTC runs its initialisers, which have no preconditions.
        let lib = unsafe { libloading::Library::new(path) }?;
        Ok(Nvrtc {
            lib,
            _builtins: builtins,
            path: path.display().to_string(),
        })
    }

    /// NVRTC's version, `(major, minor)`.
    pub fn version(&self) -> Result<(i32, i32), GpuError> {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: nvrtcVersion(int*, int*) writes two ints.
        let status = unsafe {
            let f = self.symbol::<unsafe extern "C" fn(*mut c_int, *mut c_int) -> Status>(
                b"nvrtcVersion\0",
            )?;
            f(&mut major, &mut minor)
        };
        self.check(status, "nvrtcVersion")?;
        Ok((major, minor))
    }

    fn symbol<T: Copy>(&self, name: &[u8]) -> Result<T, GpuError> {
        // SAFETY: the caller names a function of NVRTC's C interface with its C signature.
        unsafe { self.lib.get::<T>(name) }
            .map(|s| *s)
            .map_err(|e| GpuError::NoNvrtc {
                looked_for: format!(
                    "{} has no {}: {e}",
                    self.path,
                    String::from_utf8_lossy(&name[..name.len() - 1])
                ),
            })
    }

    fn check(&self, status: Status, call: &str) -> Result<(), GpuError> {
        if status == 0 {
            return Ok(());
        }
        let words = self
            .symbol::<unsafe extern "C" fn(Status) -> *const c_char>(b"nvrtcGetErrorString\0")
            .ok()
            // SAFETY: nvrtcGetErrorString returns a static, NUL-terminated string.
            .map(|f| {
                unsafe { CStr::from_ptr(f(status)) }
                    .to_string_lossy()
                    .into_owned()
            })
            .unwrap_or_else(|| format!("status {status}"));
        Err(GpuError::Compile {
            arch: String::new(),
            log: format!("{call}: {words}"),
        })
    }

    /// Compiles `source` to PTX for `arch` (such as `compute_90`).
    pub fn compile(&self, source: &str, arch: &str) -> Result<String, GpuError> {
        let ptx = self.compile_to(source, arch, Output::Ptx)?;
        String::from_utf8(ptx).map_err(|_| GpuError::Compile {
            arch: arch.to_string(),
            log: "NVRTC gave PTX that is not UTF-8".to_string(),
        })
    }

    /// Compiles `source` to the machine code (a cubin) of `arch` (such as `sm_90`): what the
    /// engine loads. Unlike PTX, which the driver compiles again and refuses when a newer
    /// NVRTC wrote it (CUDA_ERROR_UNSUPPORTED_PTX_VERSION: NVRTC 12.9 writes PTX ISA 8.8, which
    /// only drivers of CUDA 12.9 or later read), a cubin loads on every driver of NVRTC's CUDA
    /// major version or later (NVIDIA's "minor version compatibility"), and needs no compile
    /// by the driver.
    pub fn compile_cubin(&self, source: &str, arch: &str) -> Result<Vec<u8>, GpuError> {
        self.compile_to(source, arch, Output::Cubin)
    }

    /// Compiles `source` for `arch` to `output`.
    fn compile_to(&self, source: &str, arch: &str, output: Output) -> Result<Vec<u8>, GpuError> {
        type Create = unsafe extern "C" fn(
            *mut Program,
            *const c_char,
            *const c_char,
            c_int,
            *const *const c_char,
            *const *const c_char,
        ) -> Status;
        type Compile = unsafe extern "C" fn(Program, c_int, *const *const c_char) -> Status;
        type Size = unsafe extern "C" fn(Program, *mut usize) -> Status;
        type Get = unsafe extern "C" fn(Program, *mut c_char) -> Status;
        type Destroy = unsafe extern "C" fn(*mut Program) -> Status;
        let create: Create = self.symbol(b"nvrtcCreateProgram\0")?;
        let compile: Compile = self.symbol(b"nvrtcCompileProgram\0")?;
        let (size_name, get_name): (&[u8], &[u8]) = match output {
            Output::Ptx => (b"nvrtcGetPTXSize\0", b"nvrtcGetPTX\0"),
            Output::Cubin => (b"nvrtcGetCUBINSize\0", b"nvrtcGetCUBIN\0"),
        };
        let code_size: Size = self.symbol(size_name)?;
        let get_code: Get = self.symbol(get_name)?;
        let log_size: Size = self.symbol(b"nvrtcGetProgramLogSize\0")?;
        let get_log: Get = self.symbol(b"nvrtcGetProgramLog\0")?;
        let destroy: Destroy = self.symbol(b"nvrtcDestroyProgram\0")?;
        let with_arch = |e: GpuError| match e {
            GpuError::Compile { log, .. } => GpuError::Compile {
                arch: arch.to_string(),
                log,
            },
            other => other,
        };
        let src = CString::new(source).map_err(|_| GpuError::Compile {
            arch: arch.to_string(),
            log: "the kernel's source holds a NUL byte".to_string(),
        })?;
        let name = c"kernel.cu";
        let options = [
            format!("--gpu-architecture={arch}"),
            "-default-device".to_string(),
        ];
        let options: Vec<CString> = options
            .iter()
            .map(|o| CString::new(o.as_str()).expect("options hold no NUL"))
            .collect();
        let option_ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
        let mut program: Program = std::ptr::null_mut();
        // SAFETY: every pointer is valid and NUL-terminated for the calls' duration; the
        // program is destroyed once, below, whatever happens in between.
        unsafe {
            let status = create(
                &mut program,
                src.as_ptr(),
                name.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            );
            self.check(status, "nvrtcCreateProgram")
                .map_err(with_arch)?;
            let result = (|| {
                let status = compile(program, option_ptrs.len() as c_int, option_ptrs.as_ptr());
                if status != 0 {
                    let mut size = 0usize;
                    let mut log = String::new();
                    if log_size(program, &mut size) == 0 && size > 1 {
                        let mut buf = vec![0u8; size];
                        if get_log(program, buf.as_mut_ptr().cast()) == 0 {
                            log = String::from_utf8_lossy(&buf[..size - 1]).into_owned();
                        }
                    }
                    self.check(status, "nvrtcCompileProgram")
                        .map_err(|e| match e {
                            GpuError::Compile { log: words, .. } => GpuError::Compile {
                                arch: arch.to_string(),
                                log: format!("{words}: {}", log.trim()),
                            },
                            other => other,
                        })?;
                }
                let mut size = 0usize;
                let what = std::str::from_utf8(&size_name[..size_name.len() - 1]).unwrap_or("");
                self.check(code_size(program, &mut size), what)?;
                let mut buf = vec![0u8; size.max(1)];
                let what = std::str::from_utf8(&get_name[..get_name.len() - 1]).unwrap_or("");
                self.check(get_code(program, buf.as_mut_ptr().cast()), what)?;
                match output {
                    // PTX is text ending in a NUL.
                    Output::Ptx => {
                        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
                        buf.truncate(end);
                    }
                    // A cubin is an ELF file of `size` bytes, NULs and all; an architecture
                    // that is virtual (compute_XY) gives none.
                    Output::Cubin if size == 0 || !buf.starts_with(ELF) => {
                        return Err(GpuError::Compile {
                            arch: arch.to_string(),
                            log: "NVRTC gave no machine code (a virtual architecture?)".to_string(),
                        })
                    }
                    Output::Cubin => buf.truncate(size),
                }
                Ok(buf)
            })();
            destroy(&mut program);
            result.map_err(with_arch)
        }
    }
}

/// What a compile gives: PTX, or the machine code of one architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    Ptx,
    Cubin,
}

/// The first bytes of an ELF file, as every cubin is.
const ELF: &[u8] = b"\x7fELF";

/// The folder of the kernel's cache: `QUEENS_CACHE_DIR`, else `$XDG_CACHE_HOME/queens`, else
/// `~/.cache/queens`; `None` when none is known.
pub fn cache_dir() -> Option<PathBuf> {
    // Empty: unset, not the current folder. A relative XDG_CACHE_HOME is ignored, as the XDG
    // Base Directory specification says.
    if let Some(dir) = std::env::var_os("QUEENS_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| Path::new(d).is_absolute()) {
        return Some(PathBuf::from(dir).join("queens"));
    }
    std::env::var_os("HOME")
        .filter(|d| !d.is_empty())
        .map(|home| PathBuf::from(home).join(".cache").join("queens"))
}

/// The cache file of `source` compiled for `arch` (such as `sm_90`) by NVRTC `version`.
pub fn cache_file(dir: &Path, source: &str, arch: &str, version: (i32, i32)) -> PathBuf {
    let hash = crate::count::fnv1a64(source.as_bytes());
    dir.join(format!(
        "kernel-{hash:016x}-{arch}-nvrtc{}.{}.cubin",
        version.0, version.1
    ))
}

/// `source` compiled to the machine code of `arch` (such as `sm_90`, see
/// [`Nvrtc::compile_cubin`]): from the cache when it holds it, else compiled by `nvrtc` and
/// written to the cache (a cache that cannot be written is skipped without a word). A cached
/// file that is not an ELF file naming every kernel's entry point is compiled again and
/// replaced. With whether it came from the cache.
pub fn cubin_cached(nvrtc: &Nvrtc, source: &str, arch: &str) -> Result<(Vec<u8>, bool), GpuError> {
    cubin_in(cache_dir().as_deref(), nvrtc, source, arch, false)
}

/// `source` compiled for `arch` by `nvrtc`, written over the cache's entry: what replaces a
/// cached cubin the driver refuses (a damaged file), which would otherwise fail every run.
pub fn cubin_fresh(nvrtc: &Nvrtc, source: &str, arch: &str) -> Result<Vec<u8>, GpuError> {
    cubin_in(cache_dir().as_deref(), nvrtc, source, arch, true).map(|(cubin, _)| cubin)
}

/// Whether `cubin` is an ELF file whose names include every kernel's entry point.
fn names_every_entry(cubin: &[u8]) -> bool {
    let entries = [
        super::KERNEL_NAME,
        super::join::JOIN_NAME,
        super::groups::GROUPS_NAME,
    ];
    cubin.starts_with(ELF)
        && entries.iter().all(|e| {
            let name = format!("{e}\0");
            cubin.windows(name.len()).any(|w| w == name.as_bytes())
        })
}

/// [`cubin_cached`] (or, `fresh`, [`cubin_fresh`]) with the cache in `dir`, none when `None`:
/// the cubin, and whether it came from the cache.
fn cubin_in(
    dir: Option<&Path>,
    nvrtc: &Nvrtc,
    source: &str,
    arch: &str,
    fresh: bool,
) -> Result<(Vec<u8>, bool), GpuError> {
    let file = match dir {
        Some(dir) => Some(cache_file(dir, source, arch, nvrtc.version()?)),
        None => None,
    };
    if !fresh {
        if let Some(cubin) = file.as_deref().and_then(read_cached) {
            if names_every_entry(&cubin) {
                return Ok((cubin, true));
            }
        }
    }
    let cubin = nvrtc.compile_cubin(source, arch)?;
    if let Some(file) = file {
        let _ = write_atomically(&file, &cubin);
    }
    Ok((cubin, false))
}

/// The cached file at `file`: a regular file of at most 64 MiB (a FIFO there would block, a
/// link to `/dev/zero` take every byte of memory), else `None`, and it is compiled again.
fn read_cached(file: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    const MOST: u64 = 64 << 20;
    // Looked at before it is opened: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.len() > MOST {
        return None;
    }
    let opened = std::fs::File::open(file).ok()?;
    let mut bytes = Vec::new();
    opened.take(MOST).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Writes `bytes` to `file` through a temporary file renamed over it, so that a reader never
/// sees half a file.
fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        std::process::id(),
        file.file_name()
            .map(|f| f.to_string_lossy())
            .unwrap_or_default()
    ));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where NVRTC can be had (CI installs NVIDIA's wheel and sets QUEENS_NVRTC), the kernels
    /// compile to PTX with their entry points (the frame search, the half-board join and the
    /// half-board groups), and to sm_90 machine code, which the cache keeps; elsewhere the test
    /// says why it checks nothing.
    #[test]
    fn the_kernel_compiles_to_ptx_where_nvrtc_is_found() {
        let nvrtc = match Nvrtc::load() {
            Ok(nvrtc) => nvrtc,
            Err(e) => {
                eprintln!("skipped: {e}");
                assert!(
                    std::env::var_os("QUEENS_REQUIRE_NVRTC").is_none(),
                    "QUEENS_REQUIRE_NVRTC is set but {e}"
                );
                return;
            }
        };
        // compute_75: the oldest architecture NVRTC 13 still compiles for (12 goes down to 50).
        let ptx = nvrtc
            .compile(super::super::KERNEL_SOURCE, "compute_75")
            .unwrap();
        assert!(ptx.contains(".entry queens_count_tasks"), "{ptx}");
        assert!(ptx.contains(".entry queens_join_pairs"), "{ptx}");
        assert!(ptx.contains(".entry queens_count_groups"), "{ptx}");
        // Compiled to the H100's and H200's machine code, as the engine loads it, NVRTC runs
        // ptxas, which checks what PTX does not: the 48 KB of static shared memory a block may
        // have, registers. The cubin is an ELF file that names every entry point.
        let cubin = nvrtc
            .compile_cubin(super::super::KERNEL_SOURCE, "sm_90")
            .unwrap();
        assert!(names_every_entry(&cubin));
        // A virtual architecture has no machine code: an error, not an empty module.
        let err = nvrtc
            .compile_cubin(super::super::KERNEL_SOURCE, "compute_90")
            .unwrap_err();
        assert!(
            matches!(&err, GpuError::Compile { arch, .. } if arch == "compute_90"),
            "{err}"
        );
        // A kernel that does not compile gives NVRTC's log.
        let err = nvrtc.compile("this is not C++", "compute_75").unwrap_err();
        assert!(
            matches!(&err, GpuError::Compile { arch, log } if arch == "compute_75" && !log.is_empty()),
            "{err}"
        );
        // The cache: a file is written on the first compile and read on the next; one that
        // lacks an entry point (damaged, or of another kernel) is compiled again and replaced,
        // and so is any file when a fresh compile is asked for (the driver refused it).
        let dir = tempfile::tempdir().unwrap();
        let source = super::super::KERNEL_SOURCE;
        let arch = "sm_75";
        let file = cache_file(dir.path(), source, arch, nvrtc.version().unwrap());
        let (first, cached) = cubin_in(Some(dir.path()), &nvrtc, source, arch, false).unwrap();
        assert!(!cached);
        assert_eq!(std::fs::read(&file).unwrap(), first);
        let mut mark = first.clone();
        mark.extend_from_slice(b"from the cache");
        std::fs::write(&file, &mark).unwrap();
        let cached = cubin_in(Some(dir.path()), &nvrtc, source, arch, false).unwrap();
        assert_eq!(cached, (mark, true));
        let (fresh, _) = cubin_in(Some(dir.path()), &nvrtc, source, arch, true).unwrap();
        assert_eq!(
            (&fresh, std::fs::read(&file).unwrap()),
            (&first, first.clone())
        );
        // An entry point missing, or the PTX an older version cached: compiled again.
        for damaged in [
            b"\x7fELF queens_count_tasks\0 queens_join_pairs\0".as_slice(),
            b".entry queens_count_tasks( .entry queens_join_pairs( .entry queens_count_groups(",
        ] {
            std::fs::write(&file, damaged).unwrap();
            let (again, cached) = cubin_in(Some(dir.path()), &nvrtc, source, arch, false).unwrap();
            assert!(!cached);
            assert_eq!(
                (&again, std::fs::read(&file).unwrap()),
                (&first, first.clone())
            );
        }
    }

    /// Only a regular file is read from the cache: a FIFO (whose opening would wait for a
    /// writer) or a folder there is compiled again instead.
    #[test]
    #[cfg(unix)]
    fn the_cache_reads_only_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.ptx");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(read_cached(&fifo), None);
        }
        assert_eq!(read_cached(dir.path()), None);
        let file = dir.path().join("k.ptx");
        std::fs::write(&file, "ptx").unwrap();
        assert_eq!(read_cached(&file).as_deref(), Some(b"ptx".as_slice()));
    }

    /// A library `QUEENS_NVRTC` names is the one loaded, or the error names it and says why:
    /// another NVRTC found elsewhere is not taken in its place.
    #[test]
    fn the_nvrtc_named_is_loaded_or_the_error_names_it() {
        let missing = Nvrtc::load_from(Some(PathBuf::from("/nowhere/libnvrtc.so.12")));
        let err = missing.unwrap_err().to_string();
        assert!(
            err.contains("QUEENS_NVRTC=/nowhere/libnvrtc.so.12: "),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("libnvrtc.so.12");
        std::fs::write(&text, "not a library").unwrap();
        let err = Nvrtc::load_from(Some(text.clone()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("QUEENS_NVRTC={}: ", text.display())),
            "{err}"
        );
        if let Some(real) = std::env::var_os("QUEENS_NVRTC").filter(|p| !p.is_empty()) {
            let nvrtc = Nvrtc::load_from(Some(PathBuf::from(&real))).unwrap();
            assert_eq!(nvrtc.path, PathBuf::from(real).display().to_string());
        }
    }

    #[test]
    fn the_cache_file_names_source_arch_and_compiler() {
        let dir = Path::new("/c");
        let a = cache_file(dir, "x", "sm_90", (12, 9));
        assert_ne!(a, cache_file(dir, "y", "sm_90", (12, 9)));
        assert_ne!(a, cache_file(dir, "x", "sm_80", (12, 9)));
        assert_ne!(a, cache_file(dir, "x", "sm_90", (13, 0)));
        assert!(a.starts_with(dir));
    }
}
