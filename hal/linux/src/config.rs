//! OA configurations (next commit).
