"""The five notes' proofs restated step by step in SymPy and checked mechanically: the proof
language, the algebra under it, one module per note, batch mode, errata, rendering.
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
