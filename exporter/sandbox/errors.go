package sandbox

import (
	"fmt"
	"net/http"
)

// Error codes of the error body (spec section 7). The spec names the codes
// for 401, 403, 404, 429 and 500; the others are the sandbox's choice.
const (
	CodeBadRequest         = "bad_request"
	CodeUnauthorized       = "unauthorized"
	CodeForbidden          = "forbidden"
	CodeNotFound           = "not_found"
	CodeMethodNotAllowed   = "method_not_allowed"
	CodeRateLimitExceeded  = "rate_limit_exceeded"
	CodeInternalError      = "internal_error"
	CodeBadGateway         = "bad_gateway"
	CodeServiceUnavailable = "service_unavailable"
	CodeGatewayTimeout     = "gateway_timeout"
)

// apiError is an error answered with the body of spec section 7.
type apiError struct {
	status  int
	code    string
	message string
	details map[string]any
	header  http.Header
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.message) }

func newError(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

func (e *apiError) with(key string, value any) *apiError {
	if e.details == nil {
		e.details = map[string]any{}
	}
	e.details[key] = value
	return e
}

func badParam(name, format string, args ...any) *apiError {
	return newError(http.StatusBadRequest, CodeBadRequest, "parameter %s: %s", name, fmt.Sprintf(format, args...)).with("parameter", name)
}

func notFound(format string, args ...any) *apiError {
	return newError(http.StatusNotFound, CodeNotFound, format, args...)
}

type errorBody struct {
	Error errorFields `json:"error"`
}

type errorFields struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

func (e *apiError) body() errorBody {
	d := e.details
	if d == nil {
		d = map[string]any{}
	}
	return errorBody{Error: errorFields{Code: e.code, Message: e.message, Details: d}}
}

// serverErrorCode names the error code of a 5xx status.
func serverErrorCode(status int) string {
	switch status {
	case http.StatusBadGateway:
		return CodeBadGateway
	case http.StatusServiceUnavailable:
		return CodeServiceUnavailable
	case http.StatusGatewayTimeout:
		return CodeGatewayTimeout
	default:
		return CodeInternalError
	}
}
