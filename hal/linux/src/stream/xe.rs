//! Xe observation streams (next commit).
