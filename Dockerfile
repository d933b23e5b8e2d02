# The spades server in a container. Build and run (see docs/deploy.md):
#   docker build -t spades .
#   docker run -d --name spades -p 8765:8765 -v spades-data:/data spades
# The store lives in the /data volume; `docker stop` sends SIGTERM and games resume after
# the next start. Behind a TLS reverse proxy, publish the port on loopback only:
#   -p 127.0.0.1:8765:8765
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# a dedicated user that owns nothing but the store
RUN useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin spades \
    && mkdir /data \
    && chown spades:spades /data \
    && chmod 0700 /data

WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY protocol ./protocol
COPY server ./server
COPY client ./client
RUN pip install . && rm -rf /src

WORKDIR /data
USER spades
VOLUME ["/data"]
EXPOSE 8765
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4)"]
CMD ["spades", "serve", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/spades.db"]
