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
