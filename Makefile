# selah: `make run` sets everything up and serves; `make test` runs all tests.
SHELL := /bin/bash
GO ?= go
BIN := bin/selah
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
export DATABASE_URL ?= postgres://127.0.0.1:5432/selah?sslmode=disable
export REDIS_URL ?= redis://127.0.0.1:6379/0
export PORT ?= 8080

FUZZTIME ?= 20s

.PHONY: run setup build test faults bench fuzz eval clean

run: setup build
	@$(BIN) migrate
	@$(BIN) ingest
	@$(BIN) accounts ensure-dev
	@LOG_FORMAT=$${LOG_FORMAT:-text} $(BIN) serve

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

# faults adds the slow fault scenario (a killed worker's job recovered by
# Asynq, about 90 s) to the quick ones make test runs.
faults: setup
	SELAH_SLOW_FAULTS=1 $(GO) test -count=1 -timeout 10m -run 'Fault' -v ./cmd/selah

# fuzz runs every fuzz target for FUZZTIME each.
fuzz:
	$(GO) test ./corpus -run '^$$' -fuzz FuzzParseReference -fuzztime $(FUZZTIME)
	$(GO) test ./corpus/sword -run '^$$' -fuzz FuzzPlainText -fuzztime $(FUZZTIME)
	$(GO) test ./corpus/sword -run '^$$' -fuzz FuzzLexicon -fuzztime $(FUZZTIME)
	$(GO) test ./corpus/topics -run '^$$' -fuzz FuzzMatch -fuzztime $(FUZZTIME)
	$(GO) test ./web -run '^$$' -fuzz FuzzDecodeRequest -fuzztime $(FUZZTIME)

# eval prints the retrieval and answer evaluations against the local database.
eval: build
	@$(BIN) eval
	@$(BIN) eval --ask

clean:
	rm -rf bin
