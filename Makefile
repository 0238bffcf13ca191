# selah: `make run` sets everything up and serves; `make test` runs all tests.
SHELL := /bin/bash
GO ?= go
BIN := bin/selah
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
export DATABASE_URL ?= postgres://127.0.0.1:5432/selah?sslmode=disable
export REDIS_URL ?= redis://127.0.0.1:6379/0
export PORT ?= 8080

.PHONY: run setup build test bench lint fuzz clean

run: setup build
	@$(BIN) migrate
	@$(BIN) ingest
	@$(BIN) accounts ensure-dev
	@$(BIN) serve

setup:
	@bash deploy/setup.sh

build:
	@mkdir -p bin
	@$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/selah

test: setup
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

bench: setup build
	@bash deploy/bench.sh

fuzz:
	$(GO) test ./corpus -run '^$$' -fuzz FuzzParseReference -fuzztime 30s

clean:
	rm -rf bin
