//! The encoder reproduces the reference embeddings of all-MiniLM-L6-v2 computed by an independent
//! implementation (`../shared/data/models/minilm_reference.json`): every token sequence exactly and
//! every pairwise cosine to within 1e-4.

use std::path::PathBuf;

use tally_encoder::cosine;
use tally_encoder::{device::best_device, Encoder, ModelDir};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn data_dir() -> PathBuf {
    std::env::var_os("TALLY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/data"))
}

fn model_dir() -> ModelDir {
    let models = std::env::var_os("TALLY_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("models"));
    ModelDir::resolve("all-MiniLM-L6-v2", &models)
        .expect("the MiniLM model must be provisioned (scripts/setup.sh) for this test")
}

#[test]
fn minilm_reproduces_reference_tokens_and_cosines() {
    let path = data_dir().join("models/minilm_reference.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let reference: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sentences = reference["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), 8);

    let encoder = Encoder::load(&model_dir(), best_device()).unwrap();
    assert_eq!(encoder.dimension(), 384);

    let texts: Vec<&str> = sentences
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    for (text, sentence) in texts.iter().zip(sentences) {
        let expected: Vec<&str> = sentence["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(
            encoder.tokens(text).unwrap(),
            expected,
            "tokens of {text:?}"
        );
    }

    // One batch with mixed lengths: padding must not change any embedding.
    let embeddings = encoder.embed(&texts).unwrap();
    let cosines = reference["cosine"].as_array().unwrap();
    let mut worst = 0f32;
    for (i, row) in cosines.iter().enumerate() {
        for (j, expected) in row.as_array().unwrap().iter().enumerate() {
            let expected = expected.as_f64().unwrap() as f32;
            let got = cosine(&embeddings[i], &embeddings[j]);
            worst = worst.max((got - expected).abs());
            assert!(
                (got - expected).abs() < 1e-4,
                "cosine({i},{j}) = {got}, reference {expected}"
            );
        }
    }
    // The embeddings themselves match too (reference values are rounded to 7 decimals).
    for (embedding, sentence) in embeddings.iter().zip(sentences) {
        let expected = sentence["embedding"].as_array().unwrap();
        assert_eq!(embedding.len(), expected.len());
        for (got, want) in embedding.iter().zip(expected) {
            assert!((got - want.as_f64().unwrap() as f32).abs() < 1e-4);
        }
    }
    println!("largest cosine deviation from the reference: {worst:e}");

    // Embedding alone gives the same vector as embedding within a padded batch.
    let alone = encoder.embed_one(texts[4]).unwrap();
    assert!(cosine(&alone, &embeddings[4]) > 0.99999);
}
