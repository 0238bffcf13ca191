// Blank imports pin the dependencies in go.mod while the packages that use them are written.
package main

import (
	_ "github.com/chromedp/chromedp"
	_ "github.com/getkin/kin-openapi/openapi3"
	_ "github.com/go-redis/redis_rate/v10"
	_ "github.com/gofiber/fiber/v2"
	_ "github.com/google/uuid"
	_ "github.com/hibiken/asynq"
	_ "github.com/hibiken/asynqmon"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/kljensen/snowball"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/openai/openai-go/v3"
	_ "github.com/pgvector/pgvector-go"
	_ "github.com/pressly/goose/v3"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/crypto/argon2"
)
