package api

import (
	"context"
	"encoding/json"
)

// User is the user a token belongs to (spec section 2.6), with the
// organization the API names in meta.
type User struct {
	// ID, Email and Name describe the user.
	ID, Email, Name string
	// OrganizationID and OrganizationName come from meta.organization
	// when the server sends it (or meta.organization_id, or the same
	// names under attributes); they are empty otherwise.
	OrganizationID, OrganizationName string
}

// Me returns the user the token belongs to (GET /api/v1/me). It is the way
// to check a token: an invalid or expired one gives an error matching
// ErrUnauthorized.
func (c *Client) Me(ctx context.Context) (*User, *Response, error) {
	u := new(User)
	resp, err := c.get(ctx, "me", nil, u)
	if err != nil {
		return nil, resp, err
	}
	return u, resp, nil
}

type userAttrs struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	// Organization and OrganizationID are tolerated here too: the spec
	// names no organization in /me, servers put it where they like.
	Organization   json.RawMessage `json:"organization"`
	OrganizationID flexString      `json:"organization_id"`
}

type userMeta struct {
	Organization   json.RawMessage `json:"organization"`
	OrganizationID flexString      `json:"organization_id"`
}

// decodeBody reads the envelope of GET /api/v1/me.
func (u *User) decodeBody(body []byte) error {
	data, meta, err := decodeEnvelope[resource[userAttrs], userMeta](body, "user")
	if err != nil {
		return err
	}
	out := User{ID: string(data.ID), Email: data.Attributes.Email, Name: data.Attributes.Name}
	org, where := meta.Organization, "meta.organization"
	if isNull(org) {
		org, where = data.Attributes.Organization, "attributes.organization"
	}
	if !isNull(org) {
		if org[0] == '{' {
			var o struct {
				ID   flexString `json:"id"`
				Name string     `json:"name"`
			}
			if err := unmarshal(org, &o); err != nil {
				return errorIn("user", where, err)
			}
			out.OrganizationID, out.OrganizationName = string(o.ID), o.Name
		} else if out.OrganizationID, err = refID(org); err != nil {
			return errorIn("user", where, err)
		}
	}
	if out.OrganizationID == "" {
		out.OrganizationID = string(meta.OrganizationID)
	}
	if out.OrganizationID == "" {
		out.OrganizationID = string(data.Attributes.OrganizationID)
	}
	*u = out
	return nil
}
