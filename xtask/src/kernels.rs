//! `cargo xtask build-kernels`: regenerates the codelets, writes each kernel
//! module's translation unit (one per preset and base size, as gfpf-cuda
//! loads them) and compiles it to machine code (cubin; `--ptx` adds PTX) for
//! sm_80 and sm_90 with nvcc (or, where only the NVRTC library is present,
//! with NVRTC). Point `GFPF_PTX_DIR` at the output directory to make
//! gfpf-cuda load these instead of compiling at run time.

use std::path::PathBuf;

use clap::Args;
use gfpf_cuda::PtxCompiler;
use gfpf_field::{Field, Preset};
use gfpf_kernels::DeviceConstants;
use gfpf_kernels::{device_base_sizes, device_module_parts, part_module_name, translation_unit};

use crate::{codegen, workspace_root};

/// Options of `cargo xtask build-kernels`.
#[derive(Args, Debug)]
pub struct BuildKernelsArgs {
    /// Output directory (default: target/ptx).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Only these presets (repeatable; default: every preset).
    #[arg(long = "preset")]
    presets: Vec<String>,
    /// Largest base size to build (the DFT_128 and DFT_256 modules of the
    /// k = 64 and 128 presets take NVRTC many minutes each).
    #[arg(long, default_value_t = 256)]
    max_radix: usize,
    /// Also write PTX (for other architectures; the driver JIT-compiles it).
    #[arg(long)]
    ptx: bool,
}

/// The compute capabilities PTX is built for.
const ARCHS: [(i32, i32); 2] = [(8, 0), (9, 0)];

pub(crate) fn constants(preset: Preset) -> Result<DeviceConstants, String> {
    fn of<const K: usize>(p: Preset) -> Result<DeviceConstants, String> {
        Field::<K>::preset(p)
            .map(|f| DeviceConstants::of(&f))
            .map_err(|e| e.to_string())
    }
    gfpf_field::dispatch_k!(preset.k(), K => of::<K>(preset), _ => Err(format!("k = {} is not compiled", preset.k())))
}

/// Runs the task.
pub fn run(args: &BuildKernelsArgs) -> Result<(), String> {
    codegen::run(false)?;
    let out = args.out.clone().unwrap_or_else(|| workspace_root().join("target/ptx"));
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for name in &args.presets {
        Preset::from_name(name).map_err(|e| e.to_string())?;
    }
    let compiler = PtxCompiler::find(true);
    match &compiler {
        Some(PtxCompiler::Nvcc(path)) => println!("compiling with {}", path.display()),
        Some(PtxCompiler::Nvrtc) => println!("nvcc not found; compiling with NVRTC (libnvrtc.so)"),
        None => println!(
            "neither nvcc nor NVRTC was found: writing the kernel sources only (no PTX); \
             gfpf-cuda compiles them at run time on a machine with NVRTC or nvcc"
        ),
    }
    for preset in Preset::ALL {
        if !args.presets.is_empty() && !args.presets.iter().any(|n| n.eq_ignore_ascii_case(preset.name())) {
            continue;
        }
        let c = constants(preset)?;
        for radix in device_base_sizes(preset.k()) {
            if radix > args.max_radix {
                continue;
            }
            for part in device_module_parts(preset.k(), radix) {
                let name = part_module_name(&c, &[radix], part);
                let source = translation_unit(&c, &[radix], part);
                let cu = out.join(format!("{name}.cu"));
                std::fs::write(&cu, &source).map_err(|e| format!("cannot write {}: {e}", cu.display()))?;
                let Some(compiler) = &compiler else { continue };
                for (major, minor) in ARCHS {
                    let started = std::time::Instant::now();
                    if args.ptx {
                        let ptx = compiler
                            .compile(&name, &source, (major, minor))
                            .map_err(|e| e.to_string())?;
                        let ptx_path = out.join(format!("{name}.sm_{major}{minor}.ptx"));
                        std::fs::write(&ptx_path, ptx)
                            .map_err(|e| format!("cannot write {}: {e}", ptx_path.display()))?;
                    }
                    // Machine code: what gfpf-cuda loads first, with nothing left
                    // for the driver to compile.
                    let cubin = compiler
                        .compile_cubin(&name, &source, (major, minor))
                        .map_err(|e| e.to_string())?;
                    let cubin_path = out.join(format!("{name}.sm_{major}{minor}.cubin"));
                    std::fs::write(&cubin_path, cubin)
                        .map_err(|e| format!("cannot write {}: {e}", cubin_path.display()))?;
                    println!(
                        "{} (DFT_{radix} {}, sm_{major}{minor}): {:.1} s",
                        cubin_path.display(),
                        part.name(),
                        started.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }
    if compiler.is_some() {
        println!("set {}={} to load these", gfpf_cuda::PTX_DIR_ENV, out.display());
    }
    Ok(())
}
