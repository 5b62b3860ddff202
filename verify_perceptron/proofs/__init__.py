"""The five notes' proofs restated in SymPy and checked step by step: the proof language, the
prover and its algebra, counter-models, one module per note, batch mode, errata, rendering.
Beside the chain: may import `data`, `notes`, `run` and `errors`; SymPy loads only here."""

from .catalog import (
    NoteProof,
    ProofReport,
    NOTE_PROOFS,
    FORMATS,
    GENERATED_BY,
    proof_reports,
    proof_data,
    render_proofs,
    proof_documents,
    write_proof_documents,
    select,
    instantiated_claims,
)

__all__ = [
    "NoteProof",
    "ProofReport",
    "NOTE_PROOFS",
    "FORMATS",
    "GENERATED_BY",
    "proof_reports",
    "proof_data",
    "render_proofs",
    "proof_documents",
    "write_proof_documents",
    "select",
    "instantiated_claims",
]
