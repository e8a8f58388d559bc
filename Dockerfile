# The ambibench image: the command, built from this repository, and the
# stored baselines, which the Kubernetes recipe (deploy/k8s-indexed-job.yaml)
# compares a sharded run against. Build it at the repository's root:
#
#   docker build -t ambibench:latest .
#   docker run --rm ambibench:latest list
#
# and make it the cluster's without a registry (kind load docker-image
# ambibench:latest, minikube image load ambibench:latest), or push it to
# yours and name it in the recipe's image fields.

# The build stage: the Go of go.mod's go line; the binary is static (no
# cgo), so the image needs no C library.
FROM golang:1.26 AS build
WORKDIR /src
# The module's requirements first, so that a change to the sources reuses
# the downloaded modules; the cp fork is a module of this repository,
# which go.mod's replace names, so it comes with them.
COPY go.mod go.sum ./
COPY third_party/cp ./third_party/cp
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags=-s -o /out/ambibench ./cmd/ambibench

# The run stage: a small image with a shell, since the recipes' pods run
# their commands through sh -c, and with the CA certificates the live
# models' HTTPS needs.
FROM alpine:3.22
COPY --from=build /out/ambibench /usr/local/bin/ambibench
# The stored baselines (results/baselines/<run>: run.json and
# records.jsonl.gz), for ambibench compare BASE; the recipe's BASELINE.
COPY results/baselines /baselines
# A user of its own; the recipe's pods give it their volume with fsGroup.
RUN adduser -D -H -u 65532 ambibench
USER 65532
WORKDIR /runs
ENTRYPOINT ["ambibench"]
CMD ["help"]
