//! Which compute device the neural models run on.

pub use candle_core::Device;

/// The device models run on: the first CUDA GPU when the `cuda` feature is built and a GPU is
/// present, the CPU otherwise.
pub fn best_device() -> Device {
    #[cfg(feature = "cuda")]
    {
        if let Ok(device) = Device::new_cuda(0) {
            return device;
        }
    }
    Device::Cpu
}

/// A short human-readable name for a device ("cpu", "cuda:0").
pub fn device_name(device: &Device) -> String {
    match device.location() {
        candle_core::DeviceLocation::Cpu => "cpu".to_string(),
        candle_core::DeviceLocation::Cuda { gpu_id } => format!("cuda:{gpu_id}"),
        candle_core::DeviceLocation::Metal { gpu_id } => format!("metal:{gpu_id}"),
    }
}

/// The variable through which candle sizes its pool for element-wise operations.
pub const ELEMENTWISE_THREADS_VARIABLE: &str = "CANDLE_NUM_THREADS";

/// Makes candle run element-wise operations (GELU, additions, scaling) on the calling thread,
/// unless `CANDLE_NUM_THREADS` says otherwise. Matrix products still use every core (they go
/// through rayon). candle's element-wise pool spins while it waits for its workers, and on a
/// small machine those workers compete with the matrix products' threads for the same cores:
/// the spinning then took half of the CPU time of `tally bench count` on 2 cores.
///
/// Call it first thing in `main`, before any thread is started (it sets an environment variable).
pub fn run_elementwise_on_caller() {
    if std::env::var_os(ELEMENTWISE_THREADS_VARIABLE).is_none() {
        std::env::set_var(ELEMENTWISE_THREADS_VARIABLE, "1");
    }
}
