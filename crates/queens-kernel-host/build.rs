//! Compiles the GPU engine's kernel (crates/queens-core/src/count/gpu/kernel.cu) for the host
//! with the C++ compiler, through `shim.cpp`, which defines the few CUDA built-ins it uses.

fn main() {
    let kernel_dir = "../queens-core/src/count/gpu";
    println!("cargo:rerun-if-changed={kernel_dir}/kernel.cu");
    println!("cargo:rerun-if-changed=src/shim.cpp");
    cc::Build::new()
        .cpp(true)
        .std("c++14")
        .include(kernel_dir)
        .file("src/shim.cpp")
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-Werror")
        .flag("-pthread")
        .opt_level(2)
        .compile("queens_kernel_host");
}
