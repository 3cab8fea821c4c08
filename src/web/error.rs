//! Every refusal as JSON, `{"error": "..."}`, with its status.

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A refused request.
#[derive(Debug)]
pub(crate) struct WebError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

impl WebError {
    /// The request itself is wrong.
    pub(crate) fn bad(message: impl std::fmt::Display) -> WebError {
        WebError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string(),
        }
    }

    /// Every search place is taken.
    pub(crate) fn busy() -> WebError {
        WebError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "too many searches are running: stop one or try again".into(),
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

impl WebError {
    /// No such page or endpoint.
    pub(crate) fn not_found() -> WebError {
        WebError {
            status: StatusCode::NOT_FOUND,
            message: "no such page".into(),
        }
    }
}

/// The query, or why it could not be read.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, WebError> {
    q.map(|Query(t)| t)
        .map_err(|e| WebError::bad(e.body_text()))
}
